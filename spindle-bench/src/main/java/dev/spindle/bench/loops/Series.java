package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Java Grande Section 2 "Series": the first N Fourier coefficients of f(x) = (x + 1)^x on [0, 2],
 * each by trapezoid integration with 1000 steps; one parallel loop over the coefficients.
 */
final class Series extends LoopProgram<Integer, double[]> {
    private static final int STEPS = 1000;

    @Override
    public String name() {
        return "Series";
    }

    @Override
    public Integer prepare(Size size) {
        return size.pick(200, 2000, 10_000);
    }

    @Override
    double[] compute(Integer n, LoopRunner loops) {
        double[] ab = new double[2 * n];      // a_k at 2k, b_k at 2k + 1
        ab[0] = integrate(0.0, 0) / 2.0;
        loops.parallelFor(1, n, (lo, hi) -> {
            for (int k = lo; k < hi; k++) {
                double omega = Math.PI * k;
                ab[2 * k] = integrate(omega, 1);
                ab[2 * k + 1] = integrate(omega, 2);
            }
        });
        return ab;
    }

    /** Trapezoid rule over [0, 2] of f(x), f(x)·cos(ωx) (select 1) or f(x)·sin(ωx) (select 2). */
    private static double integrate(double omega, int select) {
        double dx = 2.0 / STEPS;
        double sum = (value(0.0, omega, select) + value(2.0, omega, select)) / 2.0;
        double x = 0.0;
        for (int i = 1; i < STEPS; i++) {
            x += dx;
            sum += value(x, omega, select);
        }
        return sum * dx;
    }

    private static double value(double x, double omega, int select) {
        double f = Math.pow(x + 1.0, x);
        return switch (select) {
            case 0 -> f;
            case 1 -> f * Math.cos(omega * x);
            default -> f * Math.sin(omega * x);
        };
    }

    @Override
    int chunk() {
        return 4;
    }

    @Override
    public String mismatch(double[] expected, double[] actual) {
        return compareExact(expected, actual);
    }

    @Override
    public String describe(Size size) {
        return size.pick(200, 2000, 10_000) + " Fourier coefficient pairs of (x+1)^x, 1000 trapezoid steps each";
    }
}
