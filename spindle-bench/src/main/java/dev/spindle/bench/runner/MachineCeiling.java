package dev.spindle.bench.runner;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * The best speedup this machine offers P threads at this moment: P threads each run one copy of a
 * CPU-bound kernel that shares nothing and allocates nothing, and the ceiling is
 * {@code P × T(one copy on one thread) / T(P copies on P threads)}. On dedicated cores it is P; on
 * a virtual machine whose vCPUs share physical cores (SMT siblings) or a busy host it is less, and
 * it changes from minute to minute (measured on the 2-vCPU reference VM: 1.2 to 2.0). No scheduler
 * can beat it on work like the kernel's, so the runner measures it around every benchmark and
 * prints it next to Ts/TP: a ratio that misses a target by the machine's shortfall is the
 * machine's, not the runtime's.
 *
 * <p>The kernel is a doubly recursive call tree like the suites' divide-and-conquer programs
 * (calls, branches, a few registers of state), sized so one copy takes a given time. Each figure
 * is the median of {@link #TRIALS} trials, one thread then P threads, alternated.
 */
final class MachineCeiling {
    private static final int TRIALS = 3;
    private static volatile long sink;
    private static int copiesPerMs;        // kernel repetitions per millisecond, found on first use

    private MachineCeiling() {
    }

    /**
     * Measures the ceiling for {@code p} threads.
     *
     * @param p        threads, at least 2
     * @param copyMs   about how long one copy of the kernel runs on one thread (the runner uses
     *                 25 ms, 5 ms at {@code --size small})
     * @return the ceiling, between 0 and about p
     * @throws IllegalArgumentException if {@code p < 2} or {@code copyMs <= 0}
     */
    static synchronized double measure(int p, double copyMs) {
        if (p < 2) {
            throw new IllegalArgumentException("a machine ceiling needs at least 2 threads, not " + p);
        }
        if (!(copyMs > 0)) {
            throw new IllegalArgumentException("a machine ceiling needs a positive kernel time, not " + copyMs + " ms");
        }
        if (copiesPerMs == 0) {
            copiesPerMs = calibrate();
        }
        int copies = (int) Math.max(1, Math.round(copiesPerMs * copyMs));
        double[] ratios = new double[TRIALS];
        for (int i = 0; i < TRIALS; i++) {
            double one = timeThreads(1, copies);
            double many = timeThreads(p, copies);
            ratios[i] = p * one / many;
        }
        Arrays.sort(ratios);
        return ratios[TRIALS / 2];
    }

    /** Repetitions of the kernel per millisecond on one thread, over 5 ms after warming it up. */
    private static int calibrate() {
        for (int i = 0; i < 20; i++) {
            sink += kernel(1);
        }
        long t0 = System.nanoTime();
        int n = 0;
        while (System.nanoTime() - t0 < 5_000_000L) {
            sink += kernel(1);
            n++;
        }
        return Math.max(1, n / 5);
    }

    /** Starts {@code p} threads together, each running one copy; the milliseconds until the last ends. */
    private static double timeThreads(int p, int copies) {
        CountDownLatch ready = new CountDownLatch(p);
        CountDownLatch go = new CountDownLatch(1);
        long[] end = new long[p];
        Thread[] ts = new Thread[p];
        for (int i = 0; i < p; i++) {
            int k = i;
            ts[i] = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                sink += kernel(copies);
                end[k] = System.nanoTime();
            }, "spindle-machine-ceiling-" + i);
            ts[i].setDaemon(true);
            ts[i].start();
        }
        try {
            ready.await();
            long start = System.nanoTime();
            go.countDown();
            for (Thread t : ts) {
                t.join();
            }
            return (Arrays.stream(end).max().orElse(start) - start) / 1e6;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring the machine ceiling", e);
        }
    }

    private static long kernel(int reps) {
        long s = 0;
        for (int r = 0; r < reps; r++) {
            s += calls(22);
        }
        return s;
    }

    private static long calls(int n) {
        return n < 2 ? n : calls(n - 1) + calls(n - 2);
    }
}
