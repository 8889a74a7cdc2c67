package dev.spindle.bench.runner;

import java.util.ArrayList;
import java.util.List;

/**
 * Which forks the parent measures again at the end of a suite, and what it keeps of them.
 *
 * <h2>Why</h2>
 * The guards around timed runs ({@link SlowPhaseGuard} for one-thread rows, {@link CalmCpusGuard}
 * for rows on several CPUs) throw away a run taken while a CPU probed slow, but only so many: after
 * {@link SlowPhaseGuard#MAX_RETAKES} retakes (and, for the calm-CPU guard, 15 s of waiting) a JVM
 * counts its runs whatever the probes say, or a host phase would hold the suite for its whole
 * length. This host's phases last minutes; in the forty-ninth session's futures run all three of
 * spindle's Knapsack two-worker JVMs spent that budget and ran at machine ceilings ~1.2, and the row
 * read 1.209 against fjp-tuned where it read 1.024 in the run before (PERFORMANCE.md, "The
 * forty-ninth session"). Each such JVM says so: its row's {@link #COUNTER} is the number of runs it
 * counted while a probe around them was slow. A JVM born in a phase that held both vCPUs, and gone
 * before it ended, says nothing of the kind — its guards took the slow speed for calm — but its
 * rows' fastest probe is slow against the suite's calm reference ({@link CalmProbeReference}): it
 * was born slow.
 *
 * <h2>Rule</h2>
 * A row is <em>slow</em> if it counted slow runs or was born slow, against the reference the parent
 * holds at the end of the suite (its JVMs' fastest probes, all of them by then). At the end of the
 * suite — minutes after the first measurement, as rotating forks moves a fork to other minutes —
 * every fork with a slow row is measured once more, in a fresh JVM of the same benchmark × variant.
 * Of the new fork, a row is kept in place of the first one's row at the same worker count exactly
 * when the first is slow and the new one is not; every other row stays as first measured. The rule reads the guards' verdicts, never a run's own
 * time, and is the same for every variant; each fork is measured again at most once, so a phase
 * that outlasts the suite shows in the rows' {@link #COUNTER} rather than adding JVMs without end.
 * A row that failed in the new fork (a wrong answer, an error that fails the invocation) replaces
 * the first fork whole, so that no failure is lost. The rows report {@link #REMEASURED} and
 * {@link #REPLACED}.
 */
final class SlowForks {
    /** A row's counter: timed runs counted although a probe around them was slow (averaged over forks when merged). */
    static final String COUNTER = "cpu_slow_runs_counted";
    /** A merged row's counter: how many of its forks were measured again. */
    static final String REMEASURED = "forks_remeasured";
    /** A merged row's counter: how many of its forks' rows were replaced by the new measurement. */
    static final String REPLACED = "forks_replaced";

    private SlowForks() {
    }

    /**
     * @param row one JVM's measurement of a row
     * @return whether it counted timed runs while a probe around them was slow
     */
    static boolean countedSlowRuns(Measurement row) {
        return row.error() == null && row.counters().getOrDefault(COUNTER, 0.0) > 0;
    }

    /**
     * @param row    one JVM's measurement of a row
     * @param calmMs the suite's calm probe reference ({@link CalmProbeReference#ms()}), NaN if unknown
     * @return whether its JVM's fastest probe was slow against the reference
     */
    static boolean bornSlow(Measurement row, double calmMs) {
        return row.error() == null && CalmProbeReference.bornSlow(CalmProbeReference.fastestMs(List.of(row)), calmMs);
    }

    /**
     * @param row    one JVM's measurement of a row
     * @param calmMs the suite's calm probe reference, NaN if unknown
     * @return whether it counted slow runs or was born slow
     */
    static boolean slow(Measurement row, double calmMs) {
        return countedSlowRuns(row) || bornSlow(row, calmMs);
    }

    /**
     * @param fork   one JVM's measurements, one per worker count
     * @param calmMs the suite's calm probe reference ({@link CalmProbeReference#ms()}), NaN if unknown
     * @return whether any of its rows is slow, so that the fork is measured again
     */
    static boolean needsAgain(List<Measurement> fork, double calmMs) {
        return fork.stream().anyMatch(m -> slow(m, calmMs));
    }

    /**
     * What is kept of a fork and its new measurement.
     *
     * @param fork     the rows kept, one per worker count
     * @param replaced for each row of {@code fork}, whether it comes from the new measurement
     */
    record Kept(List<Measurement> fork, boolean[] replaced) {
    }

    /**
     * The rows kept of a fork measured again ({@link SlowForks}' rule).
     *
     * @param first  the fork as first measured, one row per worker count
     * @param again  the same benchmark × variant measured again in a fresh JVM
     * @param calmMs the suite's calm probe reference ({@link CalmProbeReference#ms()}), NaN if unknown
     * @return the rows kept, and which of them are the new ones
     */
    static Kept keep(List<Measurement> first, List<Measurement> again, double calmMs) {
        boolean[] replaced = new boolean[first.size()];
        if (again.stream().anyMatch(Measurement::fails)) {
            java.util.Arrays.fill(replaced, true);
            return new Kept(again, replaced);
        }
        List<Measurement> out = new ArrayList<>(first);
        if (again.size() != first.size()) {
            return new Kept(out, replaced);                // a tolerated error: nothing to take
        }
        for (int i = 0; i < first.size(); i++) {
            Measurement a = again.get(i);
            if (slow(first.get(i), calmMs) && a.error() == null && a.workers() == first.get(i).workers()
                    && !slow(a, calmMs)) {
                out.set(i, a);
                replaced[i] = true;
            }
        }
        return new Kept(out, replaced);
    }
}
