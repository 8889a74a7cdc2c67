package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;
import dev.spindle.topology.CpuAffinity;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Whether the host slows one CPU and not another at the same moment: one thread pinned to each CPU
 * the process may use, and every round runs one sequential variant once on each of them, back to
 * back, the first CPU rotating with the round. The code is the same compiled code on every CPU
 * (one JVM, one JIT), and the rounds are seconds apart, so a gap between the CPUs' series in the
 * same rounds is where the thread ran, not what it ran: a virtual CPU whose physical core's other
 * hardware thread is busy with another guest, or that the host runs slower. A runner fork keeps
 * its timed thread on one CPU for seconds at a time, so such a phase lands on one variant's JVM
 * and not on the next one's (PERFORMANCE.md, "The forty-fourth session").
 *
 * <p>Prints each CPU's series (ms per round), its minimum, median and maximum over the last two
 * thirds of the rounds, and how many of those rounds had one CPU slower than the other by more
 * than {@link InterleavedPair#SLOW} (with more than two CPUs: the slowest against the fastest).
 * Only variants that run on the calling thread ({@code seq}, {@code seq-base-case}: those that use
 * no workers) can be placed this way. Each result is checked against the first with the
 * benchmark's own comparison. Run with the runner's JVM flags (affinity needs native access):
 * {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED -cp
 * spindle-bench/target/spindle-bench.jar dev.spindle.bench.runner.VcpuPhases SUITE BENCHMARK
 * VARIANT ROUNDS}, e.g. {@code futures Knapsack seq 30}.
 */
public final class VcpuPhases {
    private VcpuPhases() {
    }

    /**
     * Entry point.
     *
     * @param args SUITE BENCHMARK VARIANT ROUNDS
     * @throws Exception if the variant cannot be opened or a run fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: VcpuPhases SUITE BENCHMARK VARIANT ROUNDS, got " + Arrays.toString(args));
        }
        int rounds = InterleavedPair.rounds(args[3]);
        Benchmark<?, ?> b = InterleavedPair.benchmark(args[0], args[1]);
        if (!CpuAffinity.isSupported()) {
            throw new UnsupportedOperationException("VcpuPhases pins threads to CPUs, which this JVM cannot: "
                    + CpuAffinity.unsupportedReason());
        }
        System.out.print(run(b, args[2], CpuAffinity.ofCurrentThread(), rounds));
    }

    /**
     * Runs the rounds and returns the report.
     *
     * @param cpus the CPUs to pin one thread each to (at least two)
     */
    static <I, R> String run(Benchmark<I, R> b, String variant, BitSet cpus, int rounds) throws Exception {
        Variant<I, R> v = b.variant(variant);
        if (v.usesWorkers()) {
            throw new IllegalArgumentException("variant " + variant + " of " + b.name()
                    + " runs on a pool's workers, which VcpuPhases cannot place; give one that runs on the calling thread (seq)");
        }
        if (cpus.cardinality() < 2) {
            throw new IllegalArgumentException("VcpuPhases compares CPUs and this thread may use only " + cpus);
        }
        int[] cpu = cpus.stream().toArray();
        I input = b.prepare(Size.DEFAULT);
        double[][] ms = new double[cpu.length][rounds];
        ExecutorService[] threads = new ExecutorService[cpu.length];
        try (Variant.Instance<I, R> instance = v.open(1)) {
            for (int c = 0; c < cpu.length; c++) {
                threads[c] = Executors.newSingleThreadExecutor();
                BitSet one = new BitSet();
                one.set(cpu[c]);
                get(threads[c].submit(() -> {
                    CpuAffinity.setCurrentThread(one);
                    return null;
                }));
            }
            R reference = null;
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < cpu.length; k++) {
                    int c = (r + k) % cpu.length;
                    I fresh = b.fresh(input);
                    int round = r;
                    Timed<R> t = get(threads[c].submit(() -> {
                        long t0 = System.nanoTime();
                        R out = instance.run(fresh);
                        long t1 = System.nanoTime();
                        int on = CpuAffinity.currentCpu();
                        if (on != cpu[c]) {
                            throw new IllegalStateException("round " + round + ": the thread pinned to CPU " + cpu[c] + " ran on CPU " + on);
                        }
                        return new Timed<>(out, (t1 - t0) / 1e6);
                    }));
                    ms[c][r] = t.ms;
                    if (reference == null) {
                        reference = t.out;
                    } else {
                        String bad = b.mismatch(reference, t.out);
                        if (bad != null) {
                            throw new IllegalStateException(variant + " round " + r + " on CPU " + cpu[c] + ": " + bad);
                        }
                    }
                }
            }
        } finally {
            for (ExecutorService t : threads) {
                if (t != null) {
                    t.shutdown();
                }
            }
        }
        return report(variant, cpu, ms);
    }

    private record Timed<R>(R out, double ms) {
    }

    private static <T> T get(Future<T> f) throws Exception {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    static String report(String variant, int[] cpu, double[][] ms) {
        int rounds = ms[0].length;
        int from = rounds / 3;
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < cpu.length; c++) {
            sb.append(variant).append(" on CPU ").append(cpu[c]).append(", ms per round:");
            for (double x : ms[c]) {
                sb.append(String.format(Locale.ROOT, " %.0f", x));
            }
            sb.append('\n');
        }
        for (int c = 0; c < cpu.length; c++) {
            double[] tail = InterleavedPair.sortedTail(ms[c]);
            sb.append(String.format(Locale.ROOT, "CPU %d: min %.1f, median %.1f, max %.1f ms over the last %d rounds%n",
                    cpu[c], tail[0], tail[tail.length / 2], tail[tail.length - 1], tail.length));
        }
        int[] slowest = new int[cpu.length];
        int apart = 0;
        for (int r = from; r < rounds; r++) {
            int lo = 0;
            int hi = 0;
            for (int c = 1; c < cpu.length; c++) {
                lo = ms[c][r] < ms[lo][r] ? c : lo;
                hi = ms[c][r] > ms[hi][r] ? c : hi;
            }
            if (ms[hi][r] > InterleavedPair.SLOW * ms[lo][r]) {
                apart++;
                slowest[hi]++;
            }
        }
        sb.append(String.format(Locale.ROOT, "rounds with one CPU > %.2f x another: %d of %d", InterleavedPair.SLOW, apart, rounds - from));
        for (int c = 0; c < cpu.length; c++) {
            sb.append(c == 0 ? " (slowest: " : ", ").append("CPU ").append(cpu[c]).append(' ').append(slowest[c]);
        }
        return sb.append(")\n").toString();
    }
}
