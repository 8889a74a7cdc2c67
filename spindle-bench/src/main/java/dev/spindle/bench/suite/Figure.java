package dev.spindle.bench.suite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A figure a {@link Target} bounds, read from one runner invocation: a ratio of two medians, the
 * best speedup among some variants, bytes allocated per future, how flat a per-loop cost is.
 * Every figure is taken from the rows of one invocation, so that the ratios compare JVMs measured
 * minutes apart at most, never runs from different days.
 */
@FunctionalInterface
public interface Figure {

    /**
     * @param run the invocation's rows
     * @return the figure and the medians it came from, or empty if a row it needs did not run
     */
    Optional<Reading> read(RunFigures run);

    /**
     * A figure and where it came from.
     *
     * @param value  the figure
     * @param detail the medians or counters it was computed from, for the report
     */
    record Reading(double value, String detail) {
    }

    /**
     * The median of one row over the median of another: T1/Ts, Ts/T2, spindle T2 / fjp T2, …
     *
     * @param bench      benchmark
     * @param num        numerator's variant
     * @param numWorkers numerator's workers ({@link RunFigures#ANY_WORKERS} for seq)
     * @param den        denominator's variant
     * @param denWorkers denominator's workers
     * @return the figure
     */
    static Figure ratio(String bench, String num, int numWorkers, String den, int denWorkers) {
        return run -> {
            OptionalDouble a = run.medianMs(bench, num, numWorkers);
            OptionalDouble b = run.medianMs(bench, den, denWorkers);
            if (a.isEmpty() || b.isEmpty() || b.getAsDouble() <= 0) {
                return Optional.empty();
            }
            return Optional.of(new Reading(a.getAsDouble() / b.getAsDouble(),
                    row(num, numWorkers) + " " + ms(a.getAsDouble()) + " / " + row(den, denWorkers) + " " + ms(b.getAsDouble()) + " ms"));
        };
    }

    /**
     * The best Ts/TP among some variants: a target met by the best schedule of a loop.
     *
     * @param bench    benchmark
     * @param variants the candidates
     * @param workers  P
     * @return the figure, if seq and at least one candidate ran
     */
    static Figure bestSpeedup(String bench, List<String> variants, int workers) {
        return run -> {
            OptionalDouble ts = run.medianMs(bench, "seq", RunFigures.ANY_WORKERS);
            Optional<Map.Entry<String, Double>> best = fastest(run, bench, variants, workers);
            if (ts.isEmpty() || best.isEmpty()) {
                return Optional.empty();
            }
            double tp = best.get().getValue();
            return Optional.of(new Reading(ts.getAsDouble() / tp, "seq " + ms(ts.getAsDouble()) + " / "
                    + row(best.get().getKey(), workers) + " " + ms(tp) + " ms (best of " + variants.size() + ")"));
        };
    }

    /**
     * One variant's median over the best of others at the same worker count: auto against the best
     * hand-chosen schedule.
     *
     * @param bench   benchmark
     * @param variant the variant judged
     * @param others  the variants it is compared with
     * @param workers P
     * @return the figure, if the variant and at least one of the others ran
     */
    static Figure overBest(String bench, String variant, List<String> others, int workers) {
        return run -> {
            OptionalDouble t = run.medianMs(bench, variant, workers);
            Optional<Map.Entry<String, Double>> best = fastest(run, bench, others, workers);
            if (t.isEmpty() || best.isEmpty()) {
                return Optional.empty();
            }
            double tp = best.get().getValue();
            return Optional.of(new Reading(t.getAsDouble() / tp, row(variant, workers) + " " + ms(t.getAsDouble()) + " / "
                    + row(best.get().getKey(), workers) + " " + ms(tp) + " ms"));
        };
    }

    /**
     * Bytes allocated by all threads during the timed runs per future created.
     *
     * @param bench   benchmark
     * @param variant variant
     * @param workers P
     * @return the figure, if the row counted futures and allocation
     */
    static Figure bytesPerFuture(String bench, String variant, int workers) {
        return run -> {
            OptionalDouble bytes = run.counter(bench, variant, workers, "alloc_bytes");
            OptionalDouble futures = run.counter(bench, variant, workers, "futures");
            if (bytes.isEmpty() || futures.isEmpty() || futures.getAsDouble() <= 0) {
                return Optional.empty();
            }
            return Optional.of(new Reading(bytes.getAsDouble() / futures.getAsDouble(), String.format(Locale.ROOT,
                    "%s: %.0f bytes over %.0f futures per run", row(variant, workers), bytes.getAsDouble(), futures.getAsDouble())));
        };
    }

    /**
     * How flat a cost per loop is across rows that run different numbers of loops: the largest
     * per-loop median over the smallest.
     *
     * @param loopsByBench each row's benchmark and the loops one of its runs starts
     * @param variant      variant
     * @param workers      P
     * @return the figure, if every row ran
     */
    static Figure perLoopSpread(Map<String, Integer> loopsByBench, String variant, int workers) {
        Map<String, Integer> rows = new LinkedHashMap<>(loopsByBench);
        return run -> {
            List<String> cells = new ArrayList<>();
            double min = Double.POSITIVE_INFINITY;
            double max = 0;
            for (Map.Entry<String, Integer> e : rows.entrySet()) {
                OptionalDouble t = run.medianMs(e.getKey(), variant, workers);
                if (t.isEmpty()) {
                    return Optional.empty();
                }
                double perLoop = t.getAsDouble() / e.getValue();
                min = Math.min(min, perLoop);
                max = Math.max(max, perLoop);
                cells.add(String.format(Locale.ROOT, "%.3f", perLoop));
            }
            return Optional.of(new Reading(max / min, row(variant, workers) + " ms per loop at "
                    + String.join(" / ", rows.values().stream().map(String::valueOf).toList()) + " loops: " + String.join(", ", cells)));
        };
    }

    /** The variant of {@code variants} with the least median at {@code workers}, and that median. */
    private static Optional<Map.Entry<String, Double>> fastest(RunFigures run, String bench, List<String> variants, int workers) {
        Map.Entry<String, Double> best = null;
        for (String v : variants) {
            OptionalDouble tp = run.medianMs(bench, v, workers);
            if (tp.isPresent() && (best == null || tp.getAsDouble() < best.getValue())) {
                best = Map.entry(v, tp.getAsDouble());
            }
        }
        return Optional.ofNullable(best);
    }

    private static String row(String variant, int workers) {
        return workers == RunFigures.ANY_WORKERS ? variant : variant + " P=" + workers;
    }

    /**
     * Milliseconds with three significant figures or so, as the runner's tables print them.
     *
     * @param v milliseconds
     * @return them formatted
     */
    static String ms(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    }
}
