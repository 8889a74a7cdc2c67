package dev.spindle.bench.loops;

import java.util.Arrays;
import java.util.Locale;

/**
 * How much of the machine two threads get when both run vector code: LUAppl's row update
 * ({@code row[j] -= f * pivot[j]}, AVX-512 on the reference VM) on 32 KB arrays that stay in each
 * core's cache, for 0.3 s on one thread, then on two. Prints the work rate of each and their ratio:
 * ~1.9–2.0 on a quiet host. On the reference VM it read 1.4–1.7 for a second or two after a JVM
 * that pre-touched 2 GB exited, in one stretch of a session, while the one-thread rate did not
 * move; an hour later the same sequence read 1.93–1.99 (docs/PERFORMANCE.md, "The warm-up ended
 * during a compilation; dynamic's second level is the host"). Run:
 * {@code java -cp spindle-bench/target/spindle-bench.jar dev.spindle.bench.loops.VectorPairProbe [rounds]}
 */
public final class VectorPairProbe {
    private static final int LENGTH = 4096;
    private static final long MEASURE_NANOS = 300_000_000L;
    private static volatile double sink;

    private VectorPairProbe() {
    }

    /**
     * Entry point.
     *
     * @param args optional: the number of rounds (default 1)
     * @throws InterruptedException if interrupted while joining the probe threads
     */
    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        }
        for (int i = 0; i < 3; i++) {
            rate(1);                                     // compile the kernel before measuring
        }
        for (int i = 0; i < rounds; i++) {
            double one = rate(1), two = rate(2);
            System.out.printf(Locale.ROOT, "one thread %.2f, two threads %.2f G updates/s, ratio %.2f%n", one, two, two / one);
        }
    }

    private static void update(double[] row, double[] pivot, double f) {
        for (int j = 0; j < row.length; j++) {
            row[j] -= f * pivot[j];
        }
    }

    /** Updates per second, in billions, over {@code threads} threads running for the same 0.3 s. */
    private static double rate(int threads) throws InterruptedException {
        long[] done = new long[threads];
        Thread[] ts = new Thread[threads];
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int k = t;
            ts[t] = new Thread(() -> {
                double[] row = new double[LENGTH];
                double[] pivot = new double[LENGTH];
                Arrays.fill(pivot, 1e-9);
                long end = System.nanoTime() + MEASURE_NANOS;
                long n = 0;
                while (System.nanoTime() < end) {
                    for (int r = 0; r < 100; r++) {
                        update(row, pivot, 1.0000001);
                    }
                    n += 100L * LENGTH;
                }
                done[k] = n;
                sink = row[7];
            });
            ts[t].start();
        }
        long total = 0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            total += done[t];
        }
        return total / ((System.nanoTime() - t0) / 1e9) / 1e9;
    }
}
