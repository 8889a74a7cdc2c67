package dev.spindle.bench.runner;

import dev.spindle.topology.CpuAffinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * Which CPU a measuring JVM whose work runs on one thread (a sequential variant, a pool of one
 * worker) is launched on: the one a short probe finds fastest just before the launch. A pool
 * variant's JVM measures its one-worker row there first, then widens to every CPU
 * ({@link #widenProcess}) for its rows above one worker.
 *
 * <h2>Why</h2>
 * A 2-vCPU guest can find one vCPU slower than the other for seconds to minutes — call- and
 * branch-heavy code by 1.6×, a chain of divisions not at all: a physical core whose other hardware
 * thread another guest keeps busy (PERFORMANCE.md, "The forty-fourth session"). A thread computing
 * alone stays on its vCPU, so such a phase slows one JVM of a variant and not the next variant's,
 * and three JVMs per variant do not average it out. Every one-thread row — whatever its variant —
 * is therefore measured in a JVM launched confined to the vCPU the probe found faster at that
 * moment. Rows above one worker need every vCPU and are left to the kernel.
 *
 * <h2>How</h2>
 * The probe runs a recursive call chain (the kind of code those phases slow) on the calling
 * thread, pinned to each allowed CPU in turn, {@link #ROUNDS} times each, alternating, and takes
 * each CPU's median. The child is then started from the calling thread pinned to the chosen CPU:
 * a process inherits its creator thread's affinity, so every thread of the new JVM — the timed
 * thread, the pool's worker, the JIT's and the collector's — runs on that CPU, and a Spindle
 * worker's park binding restores the set it started with, this one CPU. The calling thread's own
 * set is restored right after the start. The child is told the machine's processor count
 * ({@code -XX:ActiveProcessorCount}): a JVM started on one CPU would otherwise size itself for one —
 * Serial GC instead of G1, no common-pool threads — and measure another configuration than the
 * rows it is compared with. Where affinity cannot be set (not Linux, JDK 21, no native
 * access) or only one CPU is allowed, nothing is chosen and the child starts as before.
 *
 * <h2>What it bought</h2>
 * Off by default ({@code --cpu-choice} turns it on) since the forty-seventh session: on the host
 * it was built for, the directive suite's one-thread rows run twice with it and twice without,
 * alternated, spread no less with it (median slowest/fastest JVM 1.106 and 1.046 against 1.027 and
 * 1.043), and each confined JVM pre-touched its 3 GB heap on one CPU (11.2–11.9 s against 6.7–7.2 s), so
 * the runs took 13.8 minutes against 9.0. A phase that begins after the launch, or slows both
 * vCPUs, is not one a launch-time choice can avoid (PERFORMANCE.md, "The forty-seventh session").
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
        if (!available()) {
            throw new IllegalStateException("no CPU to choose: " + (CpuAffinity.isSupported()
                    ? "this thread may run on " + CpuAffinity.ofCurrentThread() + " only"
                    : CpuAffinity.unsupportedReason()));
        }
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
        double[] medians = new double[cpus.length];
        int best = 0;
        for (int i = 0; i < cpus.length; i++) {
            Arrays.sort(samples[i]);
            medians[i] = Measurement.medianOfSorted(samples[i]);
            if (medians[i] < medians[best]) {
                best = i;
            }
        }
        return new Choice(cpus[best], cpus, medians);
    }

    /**
     * Runs {@code start} on the calling thread confined to {@code cpu}, then restores the calling
     * thread's CPUs; a process started inside keeps the confinement.
     *
     * @param cpu   the CPU
     * @param start what starts the process
     * @param <T>   its result
     * @return what {@code start} returned
     * @throws Exception what {@code start} threw
     */
    static <T> T startOn(int cpu, Callable<T> start) throws Exception {
        BitSet before = CpuAffinity.ofCurrentThread();
        CpuAffinity.setCurrentThread(cpuSet(cpu));
        try {
            return start.call();
        } finally {
            CpuAffinity.setCurrentThread(before);
        }
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
     * Lets every thread of this process run on {@code cpus} again — a measuring JVM launched on one
     * CPU, before its first row above one worker. Threads started later inherit it from their
     * creators. A pool opened after this starts its workers with these CPUs, so a Spindle worker's
     * park binding restores them.
     *
     * @param cpus the CPUs
     * @return how many threads were widened (those that ended meanwhile are skipped)
     * @throws IllegalStateException if the calling thread could not be widened
     */
    static int widenProcess(int[] cpus) {
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
            throw new IllegalStateException("cannot list this process's threads in /proc/self/task to widen them to " + set, e);
        }
        if (!CpuAffinity.ofCurrentThread().equals(set)) {
            throw new IllegalStateException("could not widen the measuring JVM to CPUs " + set + ": this thread may run on "
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
