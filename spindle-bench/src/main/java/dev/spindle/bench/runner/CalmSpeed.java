package dev.spindle.bench.runner;

/**
 * What a guard ({@link SlowPhaseGuard}, {@link CalmCpusGuard}) compares a probe with: the CPU
 * probe's calm time, as the lesser of the fastest probe this JVM has seen and the suite's reference
 * given by the parent ({@link CalmProbeReference}). Also whether the guard has taken its baseline,
 * the probes before its first timed run that make the fastest seen the CPU's speed as timing begins.
 * Owned by one guard on one thread; no synchronization.
 */
final class CalmSpeed {
    private double fastestMs = Double.MAX_VALUE;
    /** The suite's reference in milliseconds, or MAX_VALUE if none was given. */
    private double referenceMs = Double.MAX_VALUE;
    private boolean baselineTaken;

    /**
     * Gives the suite's reference: from now on a probe is compared with the lesser of it and the
     * fastest seen.
     *
     * @param ms the reference in milliseconds ({@link CalmProbeReference#ms()}); NaN for none
     * @throws IllegalArgumentException if {@code ms} is neither NaN nor a positive finite time
     */
    void reference(double ms) {
        referenceMs = Double.isNaN(CalmProbeReference.checked(ms)) ? Double.MAX_VALUE : ms;
    }

    /**
     * Records a probe: the fastest seen is the CPU's calm speed, as far as this JVM knows.
     *
     * @param ms the probe's time (for several CPUs, the fastest of them) in milliseconds
     */
    void observe(double ms) {
        fastestMs = Math.min(fastestMs, ms);
    }

    /** @return true the first time only: the guard takes its baseline now */
    boolean takeBaseline() {
        if (baselineTaken) {
            return false;
        }
        baselineTaken = true;
        return true;
    }

    /** @return the fastest probe this JVM has seen, in milliseconds; MAX_VALUE before any */
    double fastestMs() {
        return fastestMs;
    }

    /** @return what a probe is compared with: the lesser of the fastest seen and the reference, in milliseconds */
    double calmMs() {
        return Math.min(fastestMs, referenceMs);
    }
}
