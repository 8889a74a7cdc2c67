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
 */
public record Measurement(String suite, String benchmark, String description, String variant, int workers,
                          String size, int runs, double medianMs, double minMs, double maxMs,
                          boolean verified, String mismatch, Map<String, Double> counters,
                          String error, boolean tolerated) implements java.io.Serializable {

    /** @return true if this row makes the invocation fail */
    public boolean fails() {
        return mismatch != null || (error != null && !tolerated);
    }
}
