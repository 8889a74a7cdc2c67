package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suites;
import dev.spindle.bench.suite.Variant;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Two variants of one benchmark in one JVM, their runs alternated: whether a gap between them is
 * the code or the host. The runner measures each variant in its own JVMs, minutes apart, so a
 * host phase can land on one variant's JVMs and not the other's. Here every round runs both, back
 * to back, the first of the pair alternating with the round, so a slow host minute slows both.
 * It prints each variant's median over the last two thirds of the rounds, its slow runs (above
 * 1.08× that median), the ratio of the medians, and how many rounds were slow for both, for one
 * only, or for the other only. Slow runs that the host causes fall on both variants at similar
 * rates; slow runs that one variant causes fall on it alone. Each result is checked against the
 * first variant's first result with the benchmark's own comparison.
 *
 * <p>Run with the runner's JVM flags:
 * {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED -cp
 * spindle-bench/target/spindle-bench.jar dev.spindle.bench.runner.InterleavedPair SUITE BENCHMARK
 * VARIANT_A VARIANT_B WORKERS ROUNDS}, e.g. {@code directive Raytracer spindle-directive fjp-tuned 2
 * 150} (PERFORMANCE.md, "Current figures", issue #4). Two variants in one JVM share its JIT and
 * heap, unlike the runner's forks; this answers "host or code", not the targets.
 *
 * <p>A sequential variant runs on the calling thread and a pool variant on its workers, so at one
 * worker the two may sit on different CPUs, and a host that slows one virtual CPU and not the
 * other ({@link VcpuPhases}) then slows one variant only. For a pair at one worker, start the JVM
 * under {@code taskset -c N} to put both on one CPU (the caller parks while the worker runs).
 */
public final class InterleavedPair {
    /** A run slower than this multiple of its variant's median counts as slow. */
    static final double SLOW = 1.08;

    private InterleavedPair() {
    }

    /**
     * Entry point.
     *
     * @param args SUITE BENCHMARK VARIANT_A VARIANT_B WORKERS ROUNDS
     * @throws Exception if a variant cannot be opened or closed
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            throw new IllegalArgumentException("usage: InterleavedPair SUITE BENCHMARK VARIANT_A VARIANT_B WORKERS ROUNDS, got "
                    + Arrays.toString(args));
        }
        int workers = positive("WORKERS", args[4]);
        int rounds = rounds(args[5]);
        Benchmark<?, ?> b = benchmark(args[0], args[1]);
        System.out.print(run(b, args[2], args[3], workers, rounds));
    }

    /** ROUNDS from the command line: positive, and at least 3 (the first third warms up). Shared with {@link HostNoise}. */
    static int rounds(String text) {
        int rounds = positive("ROUNDS", text);
        if (rounds < 3) {
            throw new IllegalArgumentException("ROUNDS must be at least 3 (the first third warms up), not " + rounds);
        }
        return rounds;
    }

    /**
     * The rounds past the first third (which warms up), sorted: what every probe here reports on.
     * Shared with {@link HostNoise} and {@link VcpuPhases}.
     */
    static double[] sortedTail(double[] ms) {
        double[] tail = Arrays.copyOfRange(ms, ms.length / 3, ms.length);
        Arrays.sort(tail);
        return tail;
    }

    /** The benchmark of that name in that suite, or an exception naming both. Shared with {@link HostNoise}. */
    static Benchmark<?, ?> benchmark(String suite, String name) {
        return Suites.get(suite).benchmarks().stream().filter(x -> x.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("suite " + suite + " has no benchmark '" + name + "'"));
    }

    static int positive(String what, String text) {
        int v;
        try {
            v = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a positive integer, not '" + text + "'");
        }
        if (v <= 0) {
            throw new IllegalArgumentException(what + " must be a positive integer, not " + v);
        }
        return v;
    }

    /**
     * Runs the pair and returns the report.
     *
     * @param b       the benchmark
     * @param a       the first variant's name
     * @param other   the second variant's name
     * @param workers workers for both
     * @param rounds  rounds, each one run of each variant
     * @param <I>     input type
     * @param <R>     result type
     * @return the report text
     * @throws Exception if a variant cannot be opened or closed
     */
    static <I, R> String run(Benchmark<I, R> b, String a, String other, int workers, int rounds) throws Exception {
        Variant<I, R> va = b.variant(a);
        Variant<I, R> vb = b.variant(other);
        I input = b.prepare(Size.DEFAULT);
        double[][] ms = new double[2][rounds];
        R reference = null;
        try (Variant.Instance<I, R> ia = va.open(workers); Variant.Instance<I, R> ib = vb.open(workers)) {
            List<Variant.Instance<I, R>> pair = List.of(ia, ib);
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    int which = (r + k) % 2;                  // A first in even rounds, B first in odd ones
                    I fresh = b.fresh(input);
                    long t0 = System.nanoTime();
                    R out = pair.get(which).run(fresh);
                    ms[which][r] = (System.nanoTime() - t0) / 1e6;
                    if (reference == null) {
                        reference = out;
                    } else {
                        String bad = b.mismatch(reference, out);
                        if (bad != null) {
                            throw new IllegalStateException((which == 0 ? a : other) + " round " + r + ": " + bad);
                        }
                    }
                }
            }
        }
        return report(a, other, ms[0], ms[1]);
    }

    /** One variant's last two thirds of the rounds: their median, and which rounds were slow. */
    private record Tail(double median, boolean[] slow, String slowRuns) {
        static Tail of(double[] times) {
            int from = times.length / 3;
            double median = Report.median(Arrays.stream(times, from, times.length).boxed().toList()).orElseThrow();
            boolean[] slow = new boolean[times.length - from];
            StringBuilder runs = new StringBuilder();
            for (int i = 0; i < slow.length; i++) {
                slow[i] = times[from + i] > SLOW * median;
                if (slow[i]) {
                    runs.append(String.format(Locale.ROOT, " %.1f", times[from + i]));
                }
            }
            return new Tail(median, slow, runs.toString());
        }

        String line(String name, int width) {
            return String.format(Locale.ROOT, "%-" + width + "s median %.2f ms over the last %d rounds; slow runs:%s%n",
                    name, median, slow.length, slowRuns);
        }
    }

    /** The report on the last two thirds of the rounds. */
    static String report(String a, String other, double[] ta, double[] tb) {
        Tail x = Tail.of(ta);
        Tail y = Tail.of(tb);
        int both = 0;
        int onlyA = 0;
        int onlyB = 0;
        for (int r = 0; r < x.slow().length; r++) {
            both += x.slow()[r] && y.slow()[r] ? 1 : 0;
            onlyA += x.slow()[r] && !y.slow()[r] ? 1 : 0;
            onlyB += y.slow()[r] && !x.slow()[r] ? 1 : 0;
        }
        int w = Math.max(a.length(), other.length());
        return x.line(a, w) + y.line(other, w)
                + String.format(Locale.ROOT, "%s / %s = %.3f; rounds slow (> %.2f x median) for both %d, for %s only %d, for %s only %d, of %d%n",
                a, other, x.median() / y.median(), SLOW, both, a, onlyA, other, onlyB, x.slow().length);
    }
}
