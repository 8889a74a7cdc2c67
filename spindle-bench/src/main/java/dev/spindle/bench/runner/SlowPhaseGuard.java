package dev.spindle.bench.runner;

/**
 * For a one-thread row whose timed runs are placed ({@link RunPlacement}): whether the CPU a run
 * went to was in a slow phase around it, so that the run is taken again.
 *
 * <p>The CPU chosen right before a run was the faster one then; both vCPUs may be slow at once, or
 * a phase may begin during the run. So the timed thread runs {@link CpuChoice}'s probe right before
 * and right after each timed run — on the one CPU every thread of this JVM runs on then — and a run
 * with either probe more than {@link #SLOW} times the fastest probe this JVM has seen is thrown
 * away and taken again, at most {@link #MAX_RETAKES} times per measurement; after that, runs count
 * whatever the probes say. The rule reads the CPU, never the run's own time, and is the same for
 * every variant; the count of runs taken again is the row's {@code cpu_slow_retakes}, and the count
 * of runs counted though slow, its retakes spent, is {@code cpu_slow_runs_counted}: the parent
 * measures such a fork again at the end of the suite ({@link SlowForks}). Given the suite's calm
 * reference ({@link #knownCalm}, {@link CalmProbeReference}), the guard compares with the lesser of
 * it and the fastest this JVM has seen, so that a JVM born in a phase that holds both vCPUs does not
 * take its slow speed for calm.
 */
final class SlowPhaseGuard {
    /** A probe this many times the fastest seen marks a slow phase (the phases measured 1.6×). */
    static final double SLOW = 1.25;
    /** Probes taken before the first timed run. */
    static final int BASELINE = 5;
    /** Most runs taken again per measurement. */
    static final int MAX_RETAKES = 10;

    /** The probe: one timed sample of the calling thread's CPU, in milliseconds. */
    private final java.util.function.DoubleSupplier probe;
    private final CalmSpeed calm = new CalmSpeed();
    private final RetakeBudget budget = new RetakeBudget();
    /** The probes around the runs that counted, for the row's {@code cpu_probe_ms}. */
    private final java.util.List<Double> counted = new java.util.ArrayList<>();

    /** A guard probing with {@link CpuChoice#sampleMs()}. */
    SlowPhaseGuard() {
        this(CpuChoice::sampleMs);
    }

    /**
     * A guard probing with {@code probe}.
     *
     * @param probe one timed sample of the calling thread's CPU, in milliseconds
     */
    SlowPhaseGuard(java.util.function.DoubleSupplier probe) {
        this.probe = probe;
    }

    /**
     * Gives the guard the probe's calm time as the suite's other JVMs saw it: from now on a probe is
     * slow against the lesser of it and the fastest this JVM has seen.
     *
     * @param ms the reference in milliseconds ({@link CalmProbeReference#ms()}); NaN for none
     * @return this guard
     * @throws IllegalArgumentException if {@code ms} is neither NaN nor a positive finite time
     */
    SlowPhaseGuard knownCalm(double ms) {
        calm.reference(ms);
        return this;
    }

    /**
     * Runs the probe once on the calling thread.
     *
     * @return its time in milliseconds
     */
    double sample() {
        return observe(probe.getAsDouble());
    }

    /**
     * The probe before a timed run: the first time, {@link #BASELINE} samples first, so that the
     * fastest seen is the CPU's speed as timing begins and the probe's code is compiled (warm-up
     * runs are not probed: a program may make thousands).
     *
     * @return the probe's time in milliseconds
     */
    double sampleAround() {
        if (calm.takeBaseline()) {
            for (int i = 0; i < BASELINE; i++) {
                sample();
            }
        }
        return sample();
    }

    /** Records a probe's time: the fastest seen is the CPU's calm speed. */
    double observe(double ms) {
        calm.observe(ms);
        return ms;
    }

    /**
     * Whether a timed run between probes {@code beforeMs} and {@code afterMs} is taken again; if so,
     * it is counted against {@link #MAX_RETAKES}.
     *
     * @param beforeMs the probe right before the run
     * @param afterMs  the probe right after it
     * @return true to throw the run away and take it again
     */
    boolean retake(double beforeMs, double afterMs) {
        boolean slow = Math.max(beforeMs, afterMs) > SLOW * calmMs();
        if (budget.retake(slow)) {
            return true;
        }
        counted.add(beforeMs);
        counted.add(afterMs);
        return false;
    }

    /** @return the fastest probe this JVM has seen, in milliseconds (its CPU's calm speed, as far as it knows) */
    double fastestMs() {
        return calm.fastestMs();
    }

    /** @return what a probe is compared with: the lesser of the fastest seen and the reference given, in milliseconds */
    double calmMs() {
        return calm.calmMs();
    }

    /** @return the median of the probes around the runs that counted, in milliseconds; NaN if none */
    double countedMedianMs() {
        if (counted.isEmpty()) {
            return Double.NaN;
        }
        return Measurement.medianOfSorted(counted.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    }

    /** @return runs taken again so far */
    int retakes() {
        return budget.retakes();
    }

    /**
     * @return runs counted although a probe around them was slow, the retakes being spent: the
     *         row's {@code cpu_slow_runs_counted}, which makes the parent measure the fork again
     *         ({@link SlowForks})
     */
    int slowRunsCounted() {
        return budget.slowRunsCounted();
    }
}
