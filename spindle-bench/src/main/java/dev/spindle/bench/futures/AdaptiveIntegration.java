package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.DoubleFuture;

import java.util.concurrent.Future;

/**
 * AdapInt (Satin, DBLFutures Table 1): adaptive trapezoid quadrature of an oscillating function
 * over [0, 250000]; an interval whose halves disagree with it is split, the right half a future.
 * The recursion tree is very unbalanced. Every variant adds the same terms in the same order.
 */
public final class AdaptiveIntegration extends FutureProgram<Double, Double> {

    @Override
    public String name() {
        return "AdapInt";
    }

    /** The tolerance: smaller means more work. */
    @Override
    public Double prepare(Size size) {
        return switch (size) {
            case SMALL -> 1e-2;
            case DEFAULT -> 1e-4;
            case LARGE -> 1e-5;
        };
    }

    @Override
    public String describe(Size size) {
        return "adaptive quadrature over [0, 250000], eps " + prepare(size);
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{4, 6, 8, 10, 12, 14, 16, 18};
    }

    @Override
    protected int tunedCutoff() {
        return 10;
    }

    @Override
    public String mismatch(Double expected, Double actual) {
        return exact(expected, actual);
    }

    public static final double A = 0;
    public static final double B = 250_000;

    public static double f(double x) {
        return Math.sin(x) * Math.sin(x / 7.0) + 0.5 * Math.cos(x / 13.0);
    }

    @Override
    protected Double seq(Double eps) {
        return seq(A, B, f(A), f(B), (f(A) + f(B)) * (B - A) / 2, eps);
    }

    static double seq(double a, double b, double fa, double fb, double area, double eps) {
        double m = (a + b) / 2;
        double fm = f(m);
        double l = (fa + fm) * (m - a) / 2;
        double r = (fm + fb) * (b - m) / 2;
        if (Math.abs(l + r - area) < eps) {
            return l + r;
        }
        return seq(a, m, fa, fm, l, eps) + seq(m, b, fm, fb, r, eps);
    }

    @Override
    protected Double spindle(Double eps) {
        return spindle(A, B, f(A), f(B), (f(A) + f(B)) * (B - A) / 2, eps);
    }

    static double spindle(double a, double b, double fa, double fb, double area, double eps) {
        double m = (a + b) / 2;
        double fm = f(m);
        double l = (fa + fm) * (m - a) / 2;
        double r = (fm + fb) * (b - m) / 2;
        if (Math.abs(l + r - area) < eps) {
            return l + r;
        }
        DoubleFuture left = Spindle.futureDouble(() -> spindle(a, m, fa, fm, l, eps));
        double right = spindle(m, b, fm, fb, r, eps);
        return left.touchDouble() + right;
    }

    @Override
    protected Double spawned(Double eps, Spawner sp, int cutoff) {
        return spawned(A, B, f(A), f(B), (f(A) + f(B)) * (B - A) / 2, eps, 0, sp, cutoff);
    }

    static double spawned(double a, double b, double fa, double fb, double area, double eps, int depth,
                          Spawner sp, int cutoff) {
        if (cutoff > 0 && depth >= cutoff) {
            return seq(a, b, fa, fb, area, eps);
        }
        double m = (a + b) / 2;
        double fm = f(m);
        double l = (fa + fm) * (m - a) / 2;
        double r = (fm + fb) * (b - m) / 2;
        if (Math.abs(l + r - area) < eps) {
            return l + r;
        }
        Future<Double> right = sp.spawn(() -> spawned(m, b, fm, fb, r, eps, depth + 1, sp, cutoff));
        double left = spawned(a, m, fa, fm, l, eps, depth + 1, sp, cutoff);
        return left + sp.join(right);
    }
}
