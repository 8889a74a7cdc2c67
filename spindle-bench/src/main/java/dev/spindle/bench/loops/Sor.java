package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Java Grande Section 2 "SOR": successive over-relaxation (ω = 1.25) on an N × N grid, 100
 * iterations, red-black ordered so that each half-sweep is a parallel loop over rows whose
 * result does not depend on the order rows run in.
 */
final class Sor extends LoopProgram<double[][], double[][]> {
    private static final double OMEGA = 1.25;
    private static final int ITERATIONS = 100;

    @Override
    public String name() {
        return "SOR";
    }

    @Override
    public double[][] prepare(Size size) {
        int n = size.pick(250, 1000, 1500);
        java.util.SplittableRandom r = new java.util.SplittableRandom(10101010);
        double[][] g = new double[n][n];
        for (double[] row : g) {
            for (int j = 0; j < n; j++) {
                row[j] = r.nextDouble() * 1e-6;
            }
        }
        return g;
    }

    @Override
    public double[][] fresh(double[][] input) {
        return copyRows(input);
    }

    @Override
    double[][] compute(double[][] g, LoopRunner loops) {
        int n = g.length;
        double quarter = OMEGA * 0.25, keep = 1.0 - OMEGA;
        for (int it = 0; it < ITERATIONS; it++) {
            for (int color = 0; color < 2; color++) {
                int c = color;
                loops.parallelFor(1, n - 1, (lo, hi) -> {
                    for (int i = lo; i < hi; i++) {
                        double[] up = g[i - 1], row = g[i], down = g[i + 1];
                        for (int j = 1 + ((i + c) & 1); j < n - 1; j += 2) {
                            row[j] = quarter * (up[j] + down[j] + row[j - 1] + row[j + 1]) + keep * row[j];
                        }
                    }
                });
            }
        }
        return g;
    }

    @Override
    int chunk() {
        return 16;
    }

    @Override
    public String mismatch(double[][] expected, double[][] actual) {
        return compareRows(expected, actual);
    }

    @Override
    public String describe(Size size) {
        int n = size.pick(250, 1000, 1500);
        return "red-black SOR on " + n + "x" + n + ", " + ITERATIONS + " iterations (" + 2 * ITERATIONS + " loops)";
    }
}
