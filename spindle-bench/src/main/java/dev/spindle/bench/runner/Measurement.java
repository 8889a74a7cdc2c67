package dev.spindle.bench.runner;

import java.util.Map;

/**
 * One benchmark × variant × worker count: the timed runs and what the scheduler did.
 *
 * @param suite       suite name
 * @param benchmark   benchmark name
 * @param description the problem, for reports
 * @param variant     variant name
 * @param workers     worker count (for the unbounded threads baseline: the largest count asked)
 * @param size        size label
 * @param runs        timed runs
 * @param medianMs    median of the timed runs
 * @param minMs       fastest run
 * @param maxMs       slowest run
 * @param verified    every run's answer equalled the sequential answer
 * @param mismatch    the first mismatch, or null
 * @param counters    scheduler counters per timed run (averaged), may be empty
 * @param error       why the variant could not run to the end, or null
 * @param tolerated   an error that does not fail the invocation (the naive baseline's)
 * @param timesMs     every timed run, in order (across forks when merged)
 * @param forks       JVMs the runs were taken in
 */
public record Measurement(String suite, String benchmark, String description, String variant, int workers,
                          String size, int runs, double medianMs, double minMs, double maxMs,
                          boolean verified, String mismatch, Map<String, Double> counters,
                          String error, boolean tolerated, double[] timesMs, int forks)
        implements java.io.Serializable {

    /**
     * Pools the runs of the same benchmark × variant × workers taken in several JVMs.
     *
     * @param parts measurements of one configuration, one per fork
     * @return one measurement over all their runs (the first failure wins)
     */
    static Measurement merge(java.util.List<Measurement> parts) {
        Measurement first = parts.get(0);
        for (Measurement m : parts) {
            if (m.fails() || m.error() != null) {
                return m;
            }
        }
        double[] all = parts.stream().flatMapToDouble(m -> java.util.Arrays.stream(m.timesMs())).toArray();
        double[] sorted = all.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
        Map<String, Double> counters = new java.util.LinkedHashMap<>();
        for (Measurement m : parts) {
            m.counters().forEach((k, v) -> counters.merge(k, v / parts.size(), Double::sum));
        }
        return new Measurement(first.suite(), first.benchmark(), first.description(), first.variant(), first.workers(),
                first.size(), n, median, sorted[0], sorted[n - 1], true, null, counters, null, false, all, parts.size());
    }

    /** @return true if this row makes the invocation fail */
    public boolean fails() {
        return mismatch != null || (error != null && !tolerated);
    }
}
