package dev.spindle.bench.loops;

import dev.spindle.loop.IntRangeBody;

import java.util.Map;
import java.util.function.Supplier;

/**
 * How one variant executes a parallel loop. Every program of the suite is written once against
 * this interface, so the variants differ only in the loop machinery (seed 003's JTH / WD
 * transformations, parallel streams, Spindle's schedules).
 */
abstract class LoopRunner implements AutoCloseable {

    /** Parallel loops started so far (the caller's thread only), for bytes per loop. */
    private long loops;

    /** Runs {@code body} over sub-ranges covering {@code [from, to)} once; returns when all are done. */
    final void parallelFor(int from, int to, IntRangeBody body) {
        loops++;
        loop(from, to, body);
    }

    /** The variant's loop machinery. */
    abstract void loop(int from, int to, IntRangeBody body);

    /**
     * {@code steps} rounds of a loop over {@code [from, to)} with a barrier between rounds
     * (Jacobi); each round counts as a loop.
     */
    final void steps(int steps, int from, int to, StepBody body) {
        loops += steps;
        stepLoops(steps, from, to, body);
    }

    /** The default: one parallel loop per step. Spindle overrides it with one parallel region. */
    void stepLoops(int steps, int from, int to, StepBody body) {
        for (int s = 0; s < steps; s++) {
            int step = s;
            loop(from, to, (lo, hi) -> body.run(step, lo, hi));
        }
    }

    /** One step's sub-range. */
    @FunctionalInterface
    interface StepBody {
        void run(int step, int from, int to);
    }

    /** Runs the whole computation where its loops should start (on a worker, for Spindle). */
    <R> R run(Supplier<R> computation) {
        return computation.get();
    }

    /** Cumulative counters for the report: loops started, plus the scheduler's. */
    final Map<String, Long> counters() {
        Map<String, Long> m = new java.util.LinkedHashMap<>(schedulerCounters());
        m.put("loops", loops);
        return m;
    }

    /** The scheduler's cumulative counters (steals, ...), may be empty. */
    Map<String, Long> schedulerCounters() {
        return Map.of();
    }

    @Override
    public void close() {
    }

    /** The serial elision. */
    static final class Sequential extends LoopRunner {
        @Override
        void loop(int from, int to, IntRangeBody body) {
            if (from < to) {
                body.run(from, to);
            }
        }
    }

    /** Static blocks of {@code [from, to)} for {@code team} members: block {@code k}. */
    static int blockStart(int from, int to, int team, int k) {
        long n = (long) to - from;
        long q = n / team, r = n % team;
        return (int) (from + k * q + Math.min(k, r));
    }
}
