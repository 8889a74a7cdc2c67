package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Jacobi relaxation on an N × N grid with a barrier per step (FJTask paper §4.4): Spindle runs it
 * as one parallel region with a work-sharing loop per step; the other variants run one parallel
 * loop per step.
 */
final class JacobiRegion extends LoopProgram<double[][][], double[][]> {
    private static final int STEPS = 100;

    @Override
    public String name() {
        return "Jacobi";
    }

    @Override
    public double[][][] prepare(Size size) {
        int n = size.pick(256, 1024, 2048);
        double[][][] g = new double[2][n][n];
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < n; i++) {
                g[b][i][0] = 1.0;                 // a hot left edge
                g[b][0][i] = 0.5;
            }
        }
        return g;
    }

    @Override
    public double[][][] fresh(double[][][] input) {
        return new double[][][]{copyRows(input[0]), copyRows(input[1])};
    }

    @Override
    double[][] compute(double[][][] g, LoopRunner loops) {
        int n = g[0].length;
        loops.steps(STEPS, 1, n - 1, (step, lo, hi) -> {
            double[][] cur = g[step & 1], next = g[(step + 1) & 1];
            for (int i = lo; i < hi; i++) {
                double[] up = cur[i - 1], row = cur[i], down = cur[i + 1], out = next[i];
                for (int j = 1; j < n - 1; j++) {
                    out[j] = 0.25 * (up[j] + down[j] + row[j - 1] + row[j + 1]);
                }
            }
        });
        return g[STEPS & 1];
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
        int n = size.pick(256, 1024, 2048);
        return "Jacobi on " + n + "x" + n + ", " + STEPS + " steps, a barrier per step";
    }
}
