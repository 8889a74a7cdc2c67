package dev.spindle.bench.runner;

import dev.spindle.topology.CpuAffinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Which vCPU a one-thread row's timed run goes to: the one a short probe finds fastest right before
 * the run ({@link RunPlacement}, {@code --cpu-choice}), the probe that {@link SlowPhaseGuard}
 * runs around it, and the probes of every CPU alone and at once that {@link CalmCpusGuard} runs
 * around a many-worker row's runs ({@code --calm-cpus}).
 *
 * <h2>Why</h2>
 * A 2-vCPU guest can find one vCPU slower than the other for seconds to minutes — call- and
 * branch-heavy code by 1.6×, a chain of divisions not at all: a physical core whose other hardware
 * thread another guest keeps busy (PERFORMANCE.md, "The forty-fourth session"). A thread computing
 * alone stays on its vCPU, so such a phase slows the runs of one JVM and not the next one's, and
 * three JVMs per variant do not average it out: Raytracer's one-thread JVMs ran at ~107 ms
 * against ~75 exactly while their vCPU was in such a phase ("The forty-eighth session").
 *
 * <h2>How</h2>
 * The probe runs a recursive call chain (the kind of code those phases slow) on the calling
 * thread, pinned to each allowed CPU in turn, {@link #ROUNDS} times each, alternating, and takes
 * each CPU's median; the calling thread's CPUs are restored afterwards. {@link #setProcessCpus}
 * then confines every thread of this JVM to the chosen CPU for the run, and lets them all run on
 * every CPU again after it. Where affinity cannot be set (not Linux, JDK 21, no native access) or
 * only one CPU is allowed, nothing is chosen.
 *
 * <h2>History</h2>
 * The forty-sixth session chose once per JVM, launching it confined to the CPU that probed faster;
 * alternated with no choice, that did not narrow the spread of JVMs (phases begin and end within
 * a JVM's life), and a JVM started on one CPU pre-touched its 3 GB heap on one, so it was turned off
 * (PERFORMANCE.md, "The forty-seventh session"). Choosing per run replaced it.
 */
final class CpuChoice {
    /** Probe samples per CPU. */
    static final int ROUNDS = 3;
    /** Depth of the probe's call tree: about 1.5 ms per sample once compiled (Zen 5, 2026-12-06). */
    private static final int DEPTH = 29;
    private static volatile long sink;

    /** The CPU chosen and each allowed CPU's probe median (ms), in CPU order. */
    record Choice(int cpu, int[] cpus, double[] probeMs) {
        /** The slowest CPU's probe median over the chosen one's: 1 when the CPUs ran alike. */
        double slowestOverChosen() {
            double chosen = probeMs[Arrays.binarySearch(cpus, cpu)];
            return Arrays.stream(probeMs).max().orElse(chosen) / chosen;
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder("CPU ").append(cpu).append(" (probe");
            for (int i = 0; i < cpus.length; i++) {
                s.append(String.format(Locale.ROOT, " cpu%d %.2f ms", cpus[i], probeMs[i]));
            }
            return s.append(')').toString();
        }
    }

    private CpuChoice() {
    }

    /**
     * Whether a choice can be made here: affinity can be set and the calling thread may run on at
     * least two CPUs.
     *
     * @return true if {@link #probe()} chooses
     */
    static boolean available() {
        return CpuAffinity.isSupported() && CpuAffinity.ofCurrentThread().cardinality() >= 2;
    }

    /**
     * Probes every CPU the calling thread may use and chooses the fastest, the calling thread's
     * affinity restored afterwards.
     *
     * @return the choice
     * @throws IllegalStateException if not {@link #available()}
     */
    static Choice probe() {
        requireAvailable("no CPU to choose");
        BitSet before = CpuAffinity.ofCurrentThread();
        int[] cpus = before.stream().toArray();
        double[][] samples = new double[cpus.length][ROUNDS];
        try {
            kernel(DEPTH - 4);                                   // compiled before it is timed
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < cpus.length; i++) {
                    CpuAffinity.setCurrentThread(cpuSet(cpus[i]));
                    samples[i][round] = sampleMs();
                }
            }
        } finally {
            CpuAffinity.setCurrentThread(before);
        }
        double[] medians = medians(samples);
        int best = 0;
        for (int i = 1; i < cpus.length; i++) {
            if (medians[i] < medians[best]) {
                best = i;
            }
        }
        return new Choice(cpus[best], cpus, medians);
    }

    /**
     * Probes every CPU the calling thread may use <em>at once</em>: one thread pinned to each CPU
     * runs the probe's kernel, all released together, {@link #ROUNDS} times; each CPU's median.
     * Where {@link #probe()} finds each vCPU fast alone, this finds what it does not: two vCPUs
     * that slow each other down while both compute (a host whose two vCPUs share one physical
     * core's hardware threads for a while — the machine ceiling at two threads then reads
     * 1.1–1.2, PERFORMANCE.md, "The forty-ninth session"). Used by {@link CalmCpusGuard}.
     *
     * @return each allowed CPU's median time (ms), in CPU order
     * @throws IllegalStateException if not {@link #available()}, or a probe thread failed or hung
     */
    static double[] probeTogether() {
        requireAvailable("no CPUs to probe together");
        int[] cpus = CpuAffinity.ofCurrentThread().stream().toArray();
        double[][] samples = new double[cpus.length][ROUNDS];
        Throwable[] failed = new Throwable[1];
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(cpus.length);
        Thread[] threads = new Thread[cpus.length];
        for (int i = 0; i < cpus.length; i++) {
            int k = i;
            threads[i] = new Thread(() -> {
                try {
                    CpuAffinity.setCurrentThread(cpuSet(cpus[k]));
                    kernel(DEPTH - 4);                           // compiled before it is timed
                    for (int round = 0; round < ROUNDS; round++) {
                        start.await(10, java.util.concurrent.TimeUnit.SECONDS);
                        samples[k][round] = sampleMs();
                    }
                } catch (Throwable e) {
                    synchronized (failed) {
                        if (failed[0] == null) {
                            failed[0] = e;                       // the first: a broken barrier follows it
                        }
                    }
                    start.reset();                               // the others' await fails instead of hanging
                }
            }, "spindle-bench-probe-cpu" + cpus[i]);
            threads[i].setDaemon(true);
            threads[i].start();
        }
        for (int i = 0; i < cpus.length; i++) {
            try {
                threads[i].join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the CPUs were probed together", e);
            }
            if (threads[i].isAlive()) {
                throw new IllegalStateException("the probe thread of CPU " + cpus[i] + " did not finish within 30 s");
            }
        }
        synchronized (failed) {
            if (failed[0] != null) {
                throw new IllegalStateException("probing the CPUs together failed: " + failed[0], failed[0]);
            }
        }
        return medians(samples);
    }

    /** @throws IllegalStateException starting with {@code what} if not {@link #available()} */
    private static void requireAvailable(String what) {
        if (!available()) {
            throw new IllegalStateException(what + ": " + (CpuAffinity.isSupported()
                    ? "this thread may run on " + CpuAffinity.ofCurrentThread() + " only"
                    : CpuAffinity.unsupportedReason()));
        }
    }

    /** Each CPU's median over its samples (sorts them in place). */
    private static double[] medians(double[][] samples) {
        double[] medians = new double[samples.length];
        for (int i = 0; i < samples.length; i++) {
            Arrays.sort(samples[i]);
            medians[i] = Measurement.medianOfSorted(samples[i]);
        }
        return medians;
    }

    /**
     * One probe sample on the calling thread, wherever it runs ({@link SlowPhaseGuard}).
     *
     * @return its time in milliseconds
     */
    static double sampleMs() {
        long t0 = System.nanoTime();
        sink = kernel(DEPTH);
        return (System.nanoTime() - t0) / 1e6;
    }

    /**
     * Sets the CPUs of every thread of this process to {@code cpus}: one CPU to confine a timed
     * run's JVM to it, every allowed CPU to release it. Threads started later inherit their
     * creator's set. A Spindle worker's park binding restores, when the worker wakes, the set the
     * worker started with: {@link RunPlacement} opens a one-worker pool with park binding off.
     *
     * @param cpus the CPUs
     * @return how many threads were set (those that ended meanwhile are skipped)
     * @throws IllegalStateException if the calling thread could not be set
     */
    static int setProcessCpus(int... cpus) {
        BitSet set = cpuSet(cpus);
        CpuAffinity.Binding all = CpuAffinity.binding(set);
        int n = 0;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                if (all.applyToThread(Integer.parseInt(t.getFileName().toString()))) {
                    n++;
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list this process's threads in /proc/self/task to set them to " + set, e);
        }
        if (!CpuAffinity.ofCurrentThread().equals(set)) {
            throw new IllegalStateException("could not set the measuring JVM to CPUs " + set + ": this thread may run on "
                    + CpuAffinity.ofCurrentThread());
        }
        return n;
    }

    private static BitSet cpuSet(int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) {
            b.set(c);
        }
        return b;
    }

    /** Fibonacci's call tree: about 2 × fib(depth) calls and as many branches. */
    private static long kernel(int depth) {
        return depth < 2 ? depth : kernel(depth - 1) + kernel(depth - 2);
    }
}
