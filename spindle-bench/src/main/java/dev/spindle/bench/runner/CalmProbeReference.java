package dev.spindle.bench.runner;

import java.util.ArrayList;
import java.util.List;

/**
 * The CPU probe's time on a calm CPU as the suite's measuring JVMs have seen it: the reference the
 * parent gives each new fork, and against which it finds, at the end of the suite, the forks that
 * lived their whole life in a slow phase.
 *
 * <h2>Why</h2>
 * {@link SlowPhaseGuard} and {@link CalmCpusGuard} compare each probe with the fastest probe their
 * own JVM has seen. A JVM born in a host phase that slows both vCPUs, and measured before the phase
 * ends, never sees the calm speed: it takes its slow speed for calm and flags nothing. In the
 * fifty-third session's directive run such JVMs decided FFT's two-worker row against fjp-tuned
 * (1.396: spindle-directive's JVMs 98.8, 65.2, 98.4, 64.0, 96.3 ms), and in its futures run
 * spindle's one-worker Fib JVMs (106, 178, 177 ms) decided Fib Ts/T2 (PERFORMANCE.md, "The
 * fifty-third session"). The probe's calm time is a property of the host, the same in every JVM
 * (1.545 ms in nearly every row on the Zen 4 host), so the suite's other JVMs know it.
 *
 * <h2>Rule</h2>
 * Each JVM's fastest probe ({@link #FASTEST}, the least over its rows) is recorded; the reference
 * is the second least of them — a time two JVMs have seen, so that one odd sample cannot set it —
 * and is unknown (NaN) before two JVMs reported one. A guard given the reference uses the lesser of
 * it and its own fastest as the calm speed; a fork whose fastest probe is more than
 * {@link SlowPhaseGuard#SLOW} times the reference was born slow, and is measured again like a fork
 * that counted slow runs ({@link SlowForks}). The rule reads probes, never a run's own time, and is
 * the same for every variant.
 */
final class CalmProbeReference {
    /** A row's counter: the fastest probe its JVM's guard saw, in milliseconds (averaged over forks when merged). */
    static final String FASTEST = "cpu_probe_fastest_ms";

    private final List<Double> fastestPerJvm = new ArrayList<>();

    /**
     * Records one JVM's rows: their least fastest probe, if a guard probed in them.
     *
     * @param jvm the rows one JVM measured
     */
    void record(List<Measurement> jvm) {
        double least = fastestMs(jvm);
        if (!Double.isNaN(least)) {
            fastestPerJvm.add(least);
        }
    }

    /**
     * @return the probe's calm time in milliseconds: the second least of the JVMs' fastest probes,
     *         or NaN before two JVMs reported one
     */
    double ms() {
        if (fastestPerJvm.size() < 2) {
            return Double.NaN;
        }
        return fastestPerJvm.stream().mapToDouble(Double::doubleValue).sorted().skip(1).findFirst().getAsDouble();
    }

    /**
     * Checks a reference given to a measuring JVM or a guard.
     *
     * @param ms the reference in milliseconds, NaN for none
     * @return {@code ms}
     * @throws IllegalArgumentException if {@code ms} is neither NaN nor a positive finite time
     */
    static double checked(double ms) {
        if (!Double.isNaN(ms) && (!(ms > 0) || Double.isInfinite(ms))) {
            throw new IllegalArgumentException("the calm probe reference must be a positive time in milliseconds, got " + ms);
        }
        return ms;
    }

    /**
     * @param jvm the rows one JVM measured
     * @return the least of their fastest probes in milliseconds, NaN if no guard probed in them
     */
    static double fastestMs(List<Measurement> jvm) {
        double least = Double.NaN;
        for (Measurement m : jvm) {
            Double ms = m.error() == null ? m.counters().get(FASTEST) : null;
            if (ms != null && ms > 0 && ms < Double.MAX_VALUE && (Double.isNaN(least) || ms < least)) {
                least = ms;
            }
        }
        return least;
    }

    /**
     * Whether a JVM whose fastest probe took {@code fastestMs} lived in a slow phase: more than
     * {@link SlowPhaseGuard#SLOW} times the calm time.
     *
     * @param fastestMs the JVM's fastest probe, NaN if none
     * @param calmMs    the reference ({@link #ms()}), NaN if unknown
     * @return true if both are known and the JVM's fastest is slow against the reference
     */
    static boolean bornSlow(double fastestMs, double calmMs) {
        return !Double.isNaN(fastestMs) && !Double.isNaN(calmMs) && fastestMs > SlowPhaseGuard.SLOW * calmMs;
    }
}
