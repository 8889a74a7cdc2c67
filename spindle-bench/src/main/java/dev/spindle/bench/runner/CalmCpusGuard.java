package dev.spindle.bench.runner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * For a row of two or more workers, with {@code --calm-cpus}: its timed runs are taken while every
 * vCPU runs at its calm speed — the counterpart, for the rows that use every CPU, of what
 * {@link RunPlacement} and {@link SlowPhaseGuard} do for one-thread rows.
 *
 * <h2>Why</h2>
 * The host slows one vCPU at a time, call- and branch-heavy code by ~1.6×, for seconds to minutes
 * ({@link CpuChoice}). A one-thread row's run goes to the faster vCPU; a two-worker row's run uses
 * both, so in such a phase it runs on one full and one ~60% CPU, and Ts/T2 measures the host's
 * ceiling (2 / 1.6 ≈ 1.25), not the scheduler. With one-thread rows placed and two-worker rows
 * not, the ratio of the two is biased against speedup (PERFORMANCE.md, "The forty-ninth session").
 *
 * <h2>How</h2>
 * First {@link #BASELINE} times {@link CpuChoice#probe()}, each CPU alone: the fastest of those is
 * the calm speed. Right before each timed run, {@link CpuChoice#probeTogether()} times every CPU
 * while all of them compute at once — two vCPUs that are each fast alone can slow each other when
 * both are busy, as a timed run at two workers keeps them (the forty-ninth session's first run
 * with this guard probed each CPU alone only, and timed Knapsack and TreeSum-1K rows at machine
 * ceilings 1.12–1.21 without waiting). While the slowest CPU's probe is more than
 * {@link SlowPhaseGuard#SLOW} times the fastest probe this JVM has seen, the runner waits ({@link #STEP_MS} at a time, at most {@link #WAIT_BUDGET_MS} per
 * measurement) and probes again. Right after the run it probes again, and a run with either probe
 * slow is taken again, at most {@link SlowPhaseGuard#MAX_RETAKES} times per measurement. Once the
 * budget or the retakes are spent, runs count whatever the probes say, and the row reports how many
 * counted though slow ({@code cpu_slow_runs_counted}): the parent measures that fork again in a
 * fresh JVM at the end of the suite, minutes later ({@link SlowForks}). The rule reads the CPUs,
 * never the run's own time, and is the same for every variant; the row reports the time waited
 * ({@code cpu_calm_wait_ms}), the runs taken again ({@code cpu_slow_retakes}) and the median of
 * slowest / fastest-seen over the probes around the runs that counted ({@code cpu_probe_ratio}).
 * Both CPUs slow at once for a JVM's whole life cannot be told from calm by this JVM alone: the
 * fastest seen is then the slow speed. So the parent gives each fork the suite's calm reference
 * ({@link #knownCalm}, {@link CalmProbeReference}), and the guard compares with the lesser of it and
 * the fastest this JVM has seen.
 */
final class CalmCpusGuard {
    /** Probes taken before the first timed run, so that the fastest seen is the calm speed. */
    static final int BASELINE = 3;
    /** How long the runner sleeps between probes while a CPU is slow. */
    static final long STEP_MS = 100;
    /** Most time waited per measurement, summed over its runs. */
    static final long WAIT_BUDGET_MS = 15_000;

    /** Every CPU probed alone: each CPU's time, in milliseconds (the calm speed's baseline). */
    private final Supplier<double[]> alone;
    /** Every CPU probed at once: each CPU's time, in milliseconds. */
    private final Supplier<double[]> probe;
    private final LongConsumer sleep;
    private final CalmSpeed calm = new CalmSpeed();
    private long waitedMs;
    private final RetakeBudget budget = new RetakeBudget();
    private final List<Double> countedRatios = new ArrayList<>();

    /**
     * A guard probing with {@link CpuChoice#probe()} and {@link CpuChoice#probeTogether()}, and
     * sleeping with {@link Thread#sleep}.
     */
    CalmCpusGuard() {
        this(() -> CpuChoice.probe().probeMs(), CpuChoice::probeTogether, CalmCpusGuard::sleepMs);
    }

    /**
     * @param alone    every CPU probed alone, milliseconds per CPU
     * @param together every CPU probed at once, milliseconds per CPU
     * @param sleep    sleeps the given milliseconds
     */
    CalmCpusGuard(Supplier<double[]> alone, Supplier<double[]> together, LongConsumer sleep) {
        this.alone = alone;
        this.probe = together;
        this.sleep = sleep;
    }

    /**
     * Gives the guard the probe's calm time as the suite's other JVMs saw it: from now on a probe is
     * slow against the lesser of it and the fastest this JVM has seen.
     *
     * @param ms the reference in milliseconds ({@link CalmProbeReference#ms()}); NaN for none
     * @return this guard
     * @throws IllegalArgumentException if {@code ms} is neither NaN nor a positive finite time
     */
    CalmCpusGuard knownCalm(double ms) {
        calm.reference(ms);
        return this;
    }

    /**
     * Before a timed run: probes every CPU at once (the first time after {@link #BASELINE} probes
     * of each CPU alone) and waits while a CPU is slow, within the budget.
     *
     * @return the slowest CPU's time in the last probe, in milliseconds
     */
    double awaitCalm() {
        if (calm.takeBaseline()) {
            for (int i = 0; i < BASELINE; i++) {
                observe(alone.get());
            }
        }
        double slowest = sample();
        while (slowest > SlowPhaseGuard.SLOW * calmMs() && waitedMs + STEP_MS <= WAIT_BUDGET_MS) {
            sleep.accept(STEP_MS);
            waitedMs += STEP_MS;
            slowest = sample();
        }
        return slowest;
    }

    /**
     * Probes every CPU once, all at once.
     *
     * @return the slowest CPU's time, in milliseconds
     */
    double sample() {
        return observe(probe.get());
    }

    /** Records a probe of every CPU: the fastest seen is the calm speed; returns the slowest. */
    private double observe(double[] ms) {
        if (ms.length == 0) {
            throw new IllegalStateException("the CPU probe timed no CPU");
        }
        calm.observe(Arrays.stream(ms).min().getAsDouble());
        return Arrays.stream(ms).max().getAsDouble();
    }

    /**
     * Whether a timed run between probes whose slowest CPUs took {@code beforeMs} and
     * {@code afterMs} is taken again; if so, it is counted against the retakes.
     *
     * @param beforeMs the slowest CPU right before the run ({@link #awaitCalm})
     * @param afterMs  the slowest CPU right after it ({@link #sample})
     * @return true to throw the run away and take it again
     */
    boolean retake(double beforeMs, double afterMs) {
        double calmNowMs = calmMs();
        boolean slow = Math.max(beforeMs, afterMs) > SlowPhaseGuard.SLOW * calmNowMs;
        if (budget.retake(slow)) {
            return true;
        }
        countedRatios.add(beforeMs / calmNowMs);
        countedRatios.add(afterMs / calmNowMs);
        return false;
    }

    /** @return runs taken again so far */
    int retakes() {
        return budget.retakes();
    }

    /**
     * @return runs counted although a CPU probed slow around them, the retakes being spent: the
     *         row's {@code cpu_slow_runs_counted}, which makes the parent measure the fork again
     *         ({@link SlowForks})
     */
    int slowRunsCounted() {
        return budget.slowRunsCounted();
    }

    /** @return milliseconds waited so far for calm CPUs */
    long waitedMs() {
        return waitedMs;
    }

    /** @return the fastest probe of any CPU this JVM has seen, in milliseconds */
    double fastestMs() {
        return calm.fastestMs();
    }

    /** @return what a probe is compared with: the lesser of the fastest seen and the reference given, in milliseconds */
    double calmMs() {
        return calm.calmMs();
    }

    /**
     * @return the median, over the probes around the runs that counted, of the slowest CPU's time
     *         over the calm time ({@link #calmMs()}, as of that run); NaN if none
     */
    double countedMedianRatio() {
        if (countedRatios.isEmpty()) {
            return Double.NaN;
        }
        return Measurement.medianOfSorted(countedRatios.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for calm CPUs", e);
        }
    }
}
