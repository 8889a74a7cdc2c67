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
 * @param forkMediansMs      each fork's median, in fork order ({@code forks} values)
 * @param forkBytesPerFuture each fork's bytes allocated per future, NaN where the row counts none
 * @param forkCeilings       each fork's machine ceiling at the row's worker count, measured in that
 *                           JVM right after its timed runs ({@link MachineCeiling}); NaN at one
 *                           worker or where none was measured
 */
public record Measurement(String suite, String benchmark, String description, String variant, int workers,
                          String size, int runs, double medianMs, double minMs, double maxMs,
                          boolean verified, String mismatch, Map<String, Double> counters,
                          String error, boolean tolerated, double[] timesMs, int forks,
                          double[] forkMediansMs, double[] forkBytesPerFuture, double[] forkCeilings)
        implements java.io.Serializable {

    /** A measurement taken in one JVM: one fork, whose median and allocation are the row's. */
    public Measurement(String suite, String benchmark, String description, String variant, int workers,
                       String size, int runs, double medianMs, double minMs, double maxMs,
                       boolean verified, String mismatch, Map<String, Double> counters,
                       String error, boolean tolerated, double[] timesMs, int forks) {
        this(suite, benchmark, description, variant, workers, size, runs, medianMs, minMs, maxMs, verified,
                mismatch, counters, error, tolerated, timesMs, forks, new double[]{medianMs},
                new double[]{bytesPerFuture(counters)}, new double[]{Double.NaN});
    }

    /**
     * This one-fork measurement with the machine ceiling its JVM measured after its timed runs.
     *
     * @param ceiling the ceiling at this row's worker count
     * @return the same measurement, its fork's ceiling set
     * @throws IllegalStateException if this row pools several forks, whose ceilings are their own
     */
    Measurement withCeiling(double ceiling) {
        if (forks != 1) {
            throw new IllegalStateException(benchmark + " " + variant + " P=" + workers + " pools " + forks
                    + " forks: each fork's ceiling is set in its own JVM, before the merge");
        }
        return new Measurement(suite, benchmark, description, variant, workers, size, runs, medianMs, minMs, maxMs,
                verified, mismatch, counters, error, tolerated, timesMs, forks, forkMediansMs, forkBytesPerFuture,
                new double[]{ceiling});
    }

    /**
     * Bytes allocated by all threads per future created, from a row's counters.
     *
     * @param counters a row's counters per run
     * @return bytes per future, or NaN if the row counts no futures or no allocation
     */
    static double bytesPerFuture(Map<String, Double> counters) {
        Double futures = counters.get("futures");
        Double bytes = counters.get("alloc_bytes");
        return futures == null || bytes == null || futures <= 0 ? Double.NaN : bytes / futures;
    }

    /**
     * True if this row's forks ran differently enough to be told apart: their medians differ by
     * more than {@code timeRatio} (slowest over fastest), or their bytes per future by more than
     * {@code bytes}. Separate JVMs compile the same code differently (a young profile, a
     * different inlining) or meet a slower phase of a shared host, and a pooled median hides a
     * fork in the slow form.
     *
     * @param timeRatio the largest ratio of fork medians that still agree, e.g. 1.10
     * @param bytes     the largest spread of bytes per future that still agrees
     * @return whether the forks disagree
     */
    public boolean forksDisagree(double timeRatio, double bytes) {
        if (forkMediansMs.length < 2) {
            return false;
        }
        java.util.DoubleSummaryStatistics t = java.util.Arrays.stream(forkMediansMs).summaryStatistics();
        java.util.DoubleSummaryStatistics b = java.util.Arrays.stream(forkBytesPerFuture).filter(x -> !Double.isNaN(x))
                .summaryStatistics();
        return t.getMin() > 0 && t.getMax() / t.getMin() > timeRatio
                || b.getCount() > 0 && b.getMax() - b.getMin() > bytes;
    }

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
        double median = medianOfSorted(sorted);
        Map<String, Double> counters = new java.util.LinkedHashMap<>();
        for (Measurement m : parts) {
            m.counters().forEach((k, v) -> counters.merge(k, v / parts.size(), Double::sum));
        }
        double[] forkMedians = parts.stream().flatMapToDouble(m -> java.util.Arrays.stream(m.forkMediansMs())).toArray();
        double[] forkBytes = parts.stream().flatMapToDouble(m -> java.util.Arrays.stream(m.forkBytesPerFuture())).toArray();
        double[] forkCeilings = parts.stream().flatMapToDouble(m -> java.util.Arrays.stream(m.forkCeilings())).toArray();
        return new Measurement(first.suite(), first.benchmark(), first.description(), first.variant(), first.workers(),
                first.size(), n, median, sorted[0], sorted[n - 1], true, null, counters, null, false, all, parts.size(),
                forkMedians, forkBytes, forkCeilings);
    }

    /**
     * The median of values sorted ascending: the middle one, or the mean of the two middle ones.
     *
     * @param sorted at least one value, ascending
     * @return the median
     */
    static double medianOfSorted(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /** @return true if this row makes the invocation fail */
    public boolean fails() {
        return mismatch != null || (error != null && !tolerated);
    }
}
