package dev.spindle.bench.runner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * In a measuring JVM, with {@code --cpu-choice}: each timed run of a one-thread row (seq, a pool of
 * one worker) runs with every thread of the JVM confined to the vCPU that {@link CpuChoice#probe()}
 * finds fastest right before it, and every thread may use every CPU again right after it.
 *
 * <p>Per run, not per JVM: the host's slow phases of one vCPU begin and end within a JVM's life
 * (PERFORMANCE.md, "The forty-eighth session": Raytracer's seq in JVMs pinned to one vCPU ran 70–75
 * ms, or 100–110 while that vCPU was in a slow phase, and one JVM changed in the middle). The probe
 * costs ~10 ms per run (three ~1.5-ms samples on each of two CPUs), outside the timed interval.
 * The collector's and the compiler's threads share the chosen CPU during the run; for the suites'
 * most allocating program (Raytracer, ~75 MB a run) calm JVMs read the same with and without
 * (74–77 against 73–77 ms, same section). When both vCPUs are slow, the choice cannot help:
 * {@link SlowPhaseGuard} takes such a run again.
 *
 * <p>A Spindle worker's park binding restores, when the worker wakes, the CPUs it started with, so
 * a worker woken for a placed run would leave the chosen CPU: a one-worker pool is opened with park
 * binding off ({@link #openWithoutParkBinding}). With one worker there is no other worker to share a
 * vCPU with, which is what park binding is for, and confined to one CPU it would bind the worker to
 * that CPU anyway.
 */
final class RunPlacement {
    private final int[] all;
    private final List<Double> ratios = new ArrayList<>();
    private final TreeMap<Integer, Integer> runsPerCpu = new TreeMap<>();

    /**
     * @param all the CPUs every thread may use between runs
     */
    RunPlacement(int[] all) {
        this.all = all.clone();
    }

    /** A placement over the CPUs the calling thread may use now. */
    static RunPlacement ofCallingThread() {
        return new RunPlacement(dev.spindle.topology.CpuAffinity.ofCurrentThread().stream().toArray());
    }

    /**
     * Before a timed run: probes every CPU and confines every thread of this JVM to the fastest.
     *
     * @return the choice
     */
    CpuChoice.Choice place() {
        CpuChoice.Choice c = CpuChoice.probe();
        CpuChoice.setProcessCpus(c.cpu());
        ratios.add(c.slowestOverChosen());
        runsPerCpu.merge(c.cpu(), 1, Integer::sum);
        return c;
    }

    /** After a timed run: every thread of this JVM may use every CPU again. */
    void release() {
        CpuChoice.setProcessCpus(all);
    }

    /**
     * Runs {@code open} with {@code -Dspindle.parkBinding=false} and then restores the property as
     * it was: a pool constructed inside reads it once (see the class comment).
     *
     * @param open what opens the pool
     * @param <T>  what it returns
     * @return what {@code open} returned
     */
    static <T> T openWithoutParkBinding(java.util.function.Supplier<T> open) {
        String key = "spindle.parkBinding";
        String before = System.getProperty(key);
        System.setProperty(key, "false");
        try {
            return open.get();
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }

    /** @return the median over the placed runs of the slowest CPU's probe over the chosen one's; NaN if none */
    double medianProbeRatio() {
        if (ratios.isEmpty()) {
            return Double.NaN;
        }
        return Measurement.medianOfSorted(ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    }

    /** @return runs placed on each CPU, e.g. {@code "CPU 0: 4 runs, CPU 1: 2"}; empty if none */
    String summary() {
        StringBuilder s = new StringBuilder();
        runsPerCpu.forEach((cpu, n) -> s.append(s.isEmpty() ? "CPU " + cpu + ": " + n + (n == 1 ? " run" : " runs")
                : ", CPU " + cpu + ": " + n));
        return s.toString();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "RunPlacement%s(%s)", Arrays.toString(all), summary());
    }
}
