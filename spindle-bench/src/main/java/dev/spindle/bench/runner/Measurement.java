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
 */
public record Measurement(String suite, String benchmark, String description, String variant, int workers,
                          String size, int runs, double medianMs, double minMs, double maxMs,
                          boolean verified, String mismatch, Map<String, Double> counters) {
}
