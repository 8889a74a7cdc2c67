package dev.spindle.bench.suite;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A performance target of an issue, declared beside the suite that measures it, so that the runner
 * says after every run which targets the run met, with the figures it read — the same figures
 * docs/PERFORMANCE.md quotes. Targets are promises about the default problem size on the
 * project's two-core machine; they are never asserted in tests.
 *
 * <pre>{@code
 * Target.atMost(3, "Fib: spindle T1/Ts", Figure.ratio("Fib", "spindle", 1, "seq", RunFigures.ANY_WORKERS), 2.0)
 * }</pre>
 *
 * @param issue  the issue that sets it
 * @param what   what is bounded, e.g. {@code "Fib: spindle T1/Ts"}
 * @param figure how the figure is read from a run
 * @param bound  which side of the limit meets the target
 * @param limit  the limit
 */
public record Target(int issue, String what, Figure figure, Bound bound, double limit) {

    /** Which side of the limit meets a target. */
    public enum Bound {
        /** figure ≤ limit */
        AT_MOST("≤"),
        /** figure ≥ limit */
        AT_LEAST("≥"),
        /** figure &lt; limit */
        BELOW("<");

        private final String symbol;

        Bound(String symbol) {
            this.symbol = symbol;
        }

        boolean holds(double figure, double limit) {
            return switch (this) {
                case AT_MOST -> figure <= limit;
                case AT_LEAST -> figure >= limit;
                case BELOW -> figure < limit;
            };
        }
    }

    /**
     * @throws NullPointerException     if a component is null
     * @throws IllegalArgumentException if the issue is not positive or the limit is not finite
     */
    public Target {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(figure, "figure");
        Objects.requireNonNull(bound, "bound");
        if (issue <= 0) {
            throw new IllegalArgumentException("issue must be positive, was " + issue);
        }
        if (!Double.isFinite(limit)) {
            throw new IllegalArgumentException("limit of '" + what + "' must be finite, was " + limit);
        }
    }

    /** A target met when the figure is at most {@code limit}. */
    public static Target atMost(int issue, String what, Figure figure, double limit) {
        return new Target(issue, what, figure, Bound.AT_MOST, limit);
    }

    /** A target met when the figure is at least {@code limit}. */
    public static Target atLeast(int issue, String what, Figure figure, double limit) {
        return new Target(issue, what, figure, Bound.AT_LEAST, limit);
    }

    /** A target met when the figure is below {@code limit}. */
    public static Target below(int issue, String what, Figure figure, double limit) {
        return new Target(issue, what, figure, Bound.BELOW, limit);
    }

    /** {@code bench}: {@code variant} T1/Ts at most {@code limit}. */
    public static Target t1OverTs(int issue, String bench, String variant, double limit) {
        return atMost(issue, bench + ": " + variant + " T1/Ts", Figure.ratio(bench, variant, 1, "seq", RunFigures.ANY_WORKERS), limit);
    }

    /** {@code bench}: Ts / {@code variant} T{@code workers} at least {@code limit}. */
    public static Target speedup(int issue, String bench, String variant, int workers, double limit) {
        return atLeast(issue, bench + ": " + variant + " Ts/T" + workers,
                Figure.ratio(bench, "seq", RunFigures.ANY_WORKERS, variant, workers), limit);
    }

    /** {@code bench}: {@code variant} T{@code workers} / {@code baseline} T{@code workers} at most {@code limit}. */
    public static Target againstBaseline(int issue, String bench, String variant, String baseline, int workers, double limit) {
        return atMost(issue, bench + ": " + variant + " T" + workers + " / " + baseline + " T" + workers,
                Figure.ratio(bench, variant, workers, baseline, workers), limit);
    }

    /**
     * @param figure a figure of this target's kind, e.g. the median of several runs' figures
     * @return whether it meets the target
     */
    public boolean metBy(double figure) {
        return bound.holds(figure, limit);
    }

    /** @return the target as a line, e.g. {@code "Fib: spindle T1/Ts ≤ 2.0"} */
    public String describe() {
        return what + " " + bound.symbol + " " + format(limit);
    }

    /**
     * Reads this target's figure from a run.
     *
     * @param run the invocation's rows of this target's suite
     * @return the outcome: met, missed, or not measured
     */
    public Outcome evaluate(RunFigures run) {
        return new Outcome(this, figure.read(run));
    }

    /**
     * A target as one run found it.
     *
     * @param target  the target
     * @param reading its figure, or empty if a row it needs did not run
     */
    public record Outcome(Target target, Optional<Figure.Reading> reading) {
        /** @return whether the run measured the figure */
        public boolean measured() {
            return reading.isPresent();
        }

        /** @return whether the figure meets the target (false if not measured) */
        public boolean met() {
            return reading.isPresent() && target.metBy(reading.get().value());
        }

        /** @return "met", "missed" or "not measured" */
        public String status() {
            return !measured() ? "not measured" : met() ? "met" : "missed";
        }

        /** @return the figure as the report prints it, or "-" */
        public String value() {
            return reading.map(r -> format(r.value())).orElse("-");
        }
    }

    /**
     * A limit or figure to three decimals, a final zero dropped: a 5% target is read to a tenth of
     * a percent (1.033), a limit keeps two (2.00).
     *
     * @param v a limit or figure
     * @return it as the reports print it
     */
    public static String format(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        return s.endsWith("0") ? s.substring(0, s.length() - 1) : s;
    }
}
