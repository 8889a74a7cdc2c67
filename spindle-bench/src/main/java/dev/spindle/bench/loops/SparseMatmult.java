package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Java Grande Section 2 "SparseMatmult": y = A·x for a random N × N matrix in compressed-row
 * form (nz non-zeros), 200 times; one parallel loop over rows per product.
 */
final class SparseMatmult extends LoopProgram<SparseMatmult.Input, double[]> {
    private static final int ITERATIONS = 200;

    record Input(int[] rowStart, int[] col, double[] val, double[] x) {
    }

    @Override
    public String name() {
        return "SparseMatmult";
    }

    @Override
    public Input prepare(Size size) {
        int n = size.pick(5_000, 50_000, 100_000);
        int nz = n * 5;
        java.util.SplittableRandom r = new java.util.SplittableRandom(1966);
        int[] rowStart = new int[n + 1];
        int[] perRow = new int[n];
        for (int k = 0; k < nz; k++) {
            perRow[r.nextInt(n)]++;
        }
        for (int i = 0; i < n; i++) {
            rowStart[i + 1] = rowStart[i] + perRow[i];
        }
        int[] col = new int[nz];
        double[] val = new double[nz];
        for (int k = 0; k < nz; k++) {
            col[k] = r.nextInt(n);
            val[k] = r.nextDouble();
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = r.nextDouble();
        }
        return new Input(rowStart, col, val, x);
    }

    @Override
    double[] compute(Input in, LoopRunner loops) {
        int n = in.x.length;
        double[] y = new double[n];
        int[] rs = in.rowStart, col = in.col;
        double[] val = in.val, x = in.x;
        for (int it = 0; it < ITERATIONS; it++) {
            loops.parallelFor(0, n, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    double s = 0.0;
                    for (int k = rs[i]; k < rs[i + 1]; k++) {
                        s += val[k] * x[col[k]];
                    }
                    y[i] += s;
                }
            });
        }
        return y;
    }

    @Override
    int chunk() {
        return 512;
    }

    @Override
    public String mismatch(double[] expected, double[] actual) {
        return compareExact(expected, actual);
    }

    @Override
    public String describe(Size size) {
        int n = size.pick(5_000, 50_000, 100_000);
        return "CSR y += A x, N = " + n + ", nz = " + 5 * n + ", " + ITERATIONS + " products";
    }
}
