package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;
import dev.spindle.bench.suite.Variants;

import java.util.List;

/**
 * Integrate (FJTask paper §4): recursive adaptive quadrature of
 * f(x) = Σ (2i−1)·x^(2i−1) over odd i in 1..5, that is x + 5x⁵ + 9x⁹, over [−47, 48].
 * Intervals are halved until the trapezoid estimates agree within a tolerance relative to the
 * function's scale; above the threshold width the right half is forked. Every variant adds the
 * same partial sums in the same tree, so answers agree bit for bit.
 */
public final class Integrate implements Benchmark<Integrate.Problem, Double> {

    static final double LO = -47.0;
    static final double HI = 48.0;
    /** Intervals narrower than this are integrated sequentially: 2^-11 of the range. */
    static final double THRESHOLD_WIDTH = (HI - LO) / 2048.0;

    /**
     * The problem: the absolute error tolerance.
     *
     * @param tolerance stop halving when two estimates differ by at most this
     */
    public record Problem(double tolerance) {
    }

    @Override
    public String name() {
        return "Integrate";
    }

    @Override
    public Problem prepare(Size size) {
        return new Problem(switch (size) {
            case SMALL -> 1e3;
            case DEFAULT -> 1e-5;
            case LARGE -> 1e-7;
        });
    }

    @Override
    public String describe(Size size) {
        return "x+5x^5+9x^9 on [-47,48], tolerance " + prepare(size).tolerance();
    }

    @Override
    public List<Variant<Problem, Double>> variants() {
        return List.of(
                Variants.seq(p -> whole(p.tolerance())),
                Variants.spindle("spindle", (pool, p) -> pool.invoke(SpindleQuad.root(p.tolerance()))),
                Variants.fjp("fjp", (pool, p) -> pool.invoke(FjpQuad.root(p.tolerance()))),
                Variants.threads(p -> threadQuad(LO, HI, f(LO), f(HI),
                        (f(LO) + f(HI)) * (HI - LO) * 0.5, p.tolerance())));
    }

    @Override
    public String mismatch(Double expected, Double actual) {
        return Double.doubleToLongBits(expected) == Double.doubleToLongBits(actual)
                ? null : "expected " + expected + ", got " + actual;
    }

    static double f(double x) {
        double x2 = x * x;
        double x4 = x2 * x2;
        double x5 = x4 * x;
        return x + 5.0 * x5 + 9.0 * x5 * x4;
    }

    static double whole(double tol) {
        double fl = f(LO), fr = f(HI);
        return seq(LO, HI, fl, fr, (fl + fr) * (HI - LO) * 0.5, tol);
    }

    /** Sequential adaptive trapezoid recursion. */
    static double seq(double l, double r, double fl, double fr, double area, double tol) {
        double h = (r - l) * 0.5;
        double c = l + h;
        double fc = f(c);
        double hh = h * 0.5;
        double al = (fl + fc) * hh;
        double ar = (fr + fc) * hh;
        double alr = al + ar;
        if (Math.abs(alr - area) <= tol) {
            return alr;
        }
        return seq(l, c, fl, fc, al, tol) + seq(c, r, fc, fr, ar, tol);
    }

    /**
     * One halving of an interval above the threshold width, shared by the parallel variants: the
     * midpoint, the two halves' estimates, and whether they already agree with the whole.
     */
    record Halving(double l, double r, double fl, double fr, double c, double fc, double al, double ar, double sum,
                   boolean converged) {
        static Halving of(double l, double r, double fl, double fr, double area, double tol) {
            double h = (r - l) * 0.5;
            double c = l + h;
            double fc = f(c);
            double hh = h * 0.5;
            double al = (fl + fc) * hh;
            double ar = (fr + fc) * hh;
            double alr = al + ar;
            return new Halving(l, r, fl, fr, c, fc, al, ar, alr, Math.abs(alr - area) <= tol);
        }
    }

    static final class SpindleQuad extends dev.spindle.forkjoin.RecursiveTask<Double> {
        final double l, r, fl, fr, area, tol;

        SpindleQuad(double l, double r, double fl, double fr, double area, double tol) {
            this.l = l;
            this.r = r;
            this.fl = fl;
            this.fr = fr;
            this.area = area;
            this.tol = tol;
        }

        static SpindleQuad root(double tol) {
            double fl = f(LO), fr = f(HI);
            return new SpindleQuad(LO, HI, fl, fr, (fl + fr) * (HI - LO) * 0.5, tol);
        }

        @Override
        protected Double compute() {
            if (r - l <= THRESHOLD_WIDTH) {
                return seq(l, r, fl, fr, area, tol);
            }
            Halving h = Halving.of(l, r, fl, fr, area, tol);
            if (h.converged()) {
                return h.sum();
            }
            SpindleQuad right = new SpindleQuad(h.c(), r, h.fc(), fr, h.ar(), tol);
            right.fork();
            double left = new SpindleQuad(l, h.c(), fl, h.fc(), h.al(), tol).compute();
            return left + right.join();
        }
    }

    /** The same task for ForkJoinPool, line for line. */
    static final class FjpQuad extends java.util.concurrent.RecursiveTask<Double> {
        final double l, r, fl, fr, area, tol;

        FjpQuad(double l, double r, double fl, double fr, double area, double tol) {
            this.l = l;
            this.r = r;
            this.fl = fl;
            this.fr = fr;
            this.area = area;
            this.tol = tol;
        }

        static FjpQuad root(double tol) {
            double fl = f(LO), fr = f(HI);
            return new FjpQuad(LO, HI, fl, fr, (fl + fr) * (HI - LO) * 0.5, tol);
        }

        @Override
        protected Double compute() {
            if (r - l <= THRESHOLD_WIDTH) {
                return seq(l, r, fl, fr, area, tol);
            }
            Halving h = Halving.of(l, r, fl, fr, area, tol);
            if (h.converged()) {
                return h.sum();
            }
            FjpQuad right = new FjpQuad(h.c(), r, h.fc(), fr, h.ar(), tol);
            right.fork();
            double left = new FjpQuad(l, h.c(), fl, h.fc(), h.al(), tol).compute();
            return left + right.join();
        }
    }

    static double threadQuad(double l, double r, double fl, double fr, double area, double tol) {
        if (r - l <= THRESHOLD_WIDTH) {
            return seq(l, r, fl, fr, area, tol);
        }
        Halving h = Halving.of(l, r, fl, fr, area, tol);
        if (h.converged()) {
            return h.sum();
        }
        double[] halves = new double[2];
        ThreadFork.both(() -> halves[0] = threadQuad(l, h.c(), fl, h.fc(), h.al(), tol),
                () -> halves[1] = threadQuad(h.c(), r, h.fc(), fr, h.ar(), tol));
        return halves[0] + halves[1];
    }
}
