package dev.spindle.bench.futures;

import dev.spindle.Future;

/** Adaptive trapezoid integration; the left half is a potential future. */
public final class DirectiveAdaptiveIntegration implements DirectiveCode<Double, Double> {
    @Override
    public Double run(Double eps) {
        double a = AdaptiveIntegration.A;
        double b = AdaptiveIntegration.B;
        double fa = AdaptiveIntegration.f(a);
        double fb = AdaptiveIntegration.f(b);
        return integrate(a, b, fa, fb, (fa + fb) * (b - a) / 2, eps);
    }

    static double integrate(double a, double b, double fa, double fb, double area, double eps) {
        double m = (a + b) / 2;
        double fm = AdaptiveIntegration.f(m);
        double l = (fa + fm) * (m - a) / 2;
        double r = (fm + fb) * (b - m) / 2;
        if (Math.abs(l + r - area) < eps) {
            return l + r;
        }
        @Future double left = integrate(a, m, fa, fm, l, eps);
        double right = integrate(m, b, fm, fb, r, eps);
        return left + right;
    }

    private final java.util.Map<Double, Long> counts = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public long potentialFutures(Double eps) {
        return counts.computeIfAbsent(eps, e -> {
            double a = AdaptiveIntegration.A;
            double b = AdaptiveIntegration.B;
            double fa = AdaptiveIntegration.f(a);
            double fb = AdaptiveIntegration.f(b);
            return count(a, b, fa, fb, (fa + fb) * (b - a) / 2, e);
        });
    }

    private static long count(double a, double b, double fa, double fb, double area, double eps) {
        double m = (a + b) / 2;
        double fm = AdaptiveIntegration.f(m);
        double l = (fa + fm) * (m - a) / 2;
        double r = (fm + fb) * (b - m) / 2;
        if (Math.abs(l + r - area) < eps) {
            return 0;
        }
        return 1 + count(a, m, fa, fm, l, eps) + count(m, b, fm, fb, r, eps);
    }
}
