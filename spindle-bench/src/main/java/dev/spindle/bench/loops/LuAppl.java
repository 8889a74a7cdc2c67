package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Seed 003's LUAppl: LU decomposition (no pivoting; the matrix is diagonally dominant) of an
 * n × n matrix, one parallel loop over the rows below the pivot per pivot step.
 */
final class LuAppl extends LoopProgram<double[][], double[][]> {
    @Override
    public String name() {
        return "LUAppl";
    }

    @Override
    public double[][] prepare(Size size) {
        int n = size.pick(256, 1024, 2048);
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        double[][] a = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = r.nextDouble();
            }
            a[i][i] += n;
        }
        return a;
    }

    @Override
    public double[][] fresh(double[][] input) {
        return copyRows(input);
    }

    @Override
    double[][] compute(double[][] a, LoopRunner loops) {
        int n = a.length;
        for (int k = 0; k < n - 1; k++) {
            double[] pivot = a[k];
            int kk = k;
            loops.parallelFor(k + 1, n, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    double[] row = a[i];
                    double f = row[kk] / pivot[kk];
                    row[kk] = f;
                    for (int j = kk + 1; j < n; j++) {
                        row[j] -= f * pivot[j];
                    }
                }
            });
        }
        return a;
    }

    @Override
    int chunk() {
        return 8;
    }

    @Override
    public String mismatch(double[][] expected, double[][] actual) {
        return compareRows(expected, actual);
    }

    @Override
    public String describe(Size size) {
        int n = size.pick(256, 1024, 2048);
        return "LU of a " + n + "x" + n + " matrix, one parallel loop per pivot (" + (n - 1) + " loops)";
    }
}
