package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;

import java.util.Arrays;
import java.util.Locale;

/**
 * Whether a benchmark's run-to-run spread in one JVM is the host's: each round times a fixed
 * chain of dependent integer operations (no calls, no memory, no branches but the loop's: one
 * compiled form, untouched by caches and predictors) and then one run of a variant. If the chain
 * stays put while the variant's runs spread, what slows the variant is something the chain does
 * not use — a neighbour on the core's other hardware thread taking the caches, the branch
 * predictors or the memory bus — not the CPU share and not the JIT, whose compiled forms are fixed
 * for the JVM's life once warm.
 *
 * <p>Prints both series (ms per round) and, over the last two thirds of the rounds, each one's
 * minimum, median and maximum. Run with the runner's JVM flags:
 * {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED -cp
 * spindle-bench/target/spindle-bench.jar dev.spindle.bench.runner.HostNoise SUITE BENCHMARK VARIANT
 * WORKERS ROUNDS}, e.g. {@code futures Knapsack seq 1 30} (PERFORMANCE.md, "Forty-second session").
 */
public final class HostNoise {
    /** Iterations of the chain per round: 200–276 ms on the Intel host of 2026-12-06. */
    private static final long CHAIN = 100_000_000L;
    private static volatile long sink;

    private HostNoise() {
    }

    /**
     * Entry point.
     *
     * @param args SUITE BENCHMARK VARIANT WORKERS ROUNDS
     * @throws Exception if the variant cannot be opened or closed
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: HostNoise SUITE BENCHMARK VARIANT WORKERS ROUNDS, got " + Arrays.toString(args));
        }
        int workers = InterleavedPair.positive("WORKERS", args[3]);
        int rounds = InterleavedPair.rounds(args[4]);
        Benchmark<?, ?> b = InterleavedPair.benchmark(args[0], args[1]);
        System.out.print(run(b, args[2], workers, rounds, CHAIN));
    }

    /** A dependency chain of xor-shifts: each step needs the last. */
    static long chain(long n) {
        long x = 0x9E3779B97F4A7C15L;
        for (long i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /**
     * Runs the rounds and returns the report.
     *
     * @param chain iterations of the chain per round ({@link #CHAIN} from the command line)
     */
    static <I, R> String run(Benchmark<I, R> b, String variant, int workers, int rounds, long chain) throws Exception {
        Variant<I, R> v = b.variant(variant);
        I input = b.prepare(Size.DEFAULT);
        double[] chainMs = new double[rounds];
        double[] runMs = new double[rounds];
        for (int i = 0; i < 5; i++) {
            sink += chain(chain / 10);
        }
        R reference = null;
        try (Variant.Instance<I, R> instance = v.open(workers)) {
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                sink += chain(chain);
                long t1 = System.nanoTime();
                I fresh = b.fresh(input);
                long t2 = System.nanoTime();
                R out = instance.run(fresh);
                long t3 = System.nanoTime();
                chainMs[r] = (t1 - t0) / 1e6;
                runMs[r] = (t3 - t2) / 1e6;
                if (reference == null) {
                    reference = out;
                } else {
                    String bad = b.mismatch(reference, out);
                    if (bad != null) {
                        throw new IllegalStateException(variant + " round " + r + ": " + bad);
                    }
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("round ms (chain / ").append(variant).append("):");
        for (int r = 0; r < rounds; r++) {
            sb.append(String.format(Locale.ROOT, " %.0f/%.0f", chainMs[r], runMs[r]));
        }
        sb.append('\n');
        sb.append(spread("chain", chainMs)).append(spread(variant, runMs));
        return sb.toString();
    }

    /** Minimum, median and maximum over the last two thirds of the rounds. */
    private static String spread(String name, double[] ms) {
        double[] tail = InterleavedPair.sortedTail(ms);
        return String.format(Locale.ROOT, "%s: min %.1f, median %.1f, max %.1f ms (max/min %.2f) over the last %d rounds%n",
                name, tail[0], tail[tail.length / 2], tail[tail.length - 1], tail[tail.length - 1] / tail[0], tail.length);
    }
}
