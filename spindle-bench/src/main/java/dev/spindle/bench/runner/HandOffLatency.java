package dev.spindle.bench.runner;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long a value takes to go from one thread to another and back on this machine at this moment:
 * two threads that never park pass a counter to and fro, and the figure is nanoseconds per round
 * trip. It is the floor under every steal, every hand-off to a spinning thief and every join with
 * one, so rows whose tasks take microseconds gain or lose most of their speedup with it: TreeSum-1K
 * sums a tree in 4–8 µs, and its best possible Ts/T2 on the 2-vCPU reference VM was 1.89 with
 * 150-ns round trips and 1.66 with 470-ns ones (the {@code HandOffCeiling} probe), the two figures
 * minutes apart as the host moved the vCPUs. The runner measures it around each benchmark, as it
 * does {@link MachineCeiling}, and prints it beside Ts/TP.
 *
 * <p>Each figure is the median of {@link #TRIALS} trials of {@link #TRIPS} round trips after a
 * tenth as many unmeasured ones. A trial stops after {@link #TRIAL_BUDGET_MS} ms whatever it has
 * done (on one CPU a spinning pair needs a scheduler time slice per trip), and then counts only
 * the trips it completed.
 */
public final class HandOffLatency {
    private static final int TRIALS = 3;
    private static final int TRIPS = 20_000;
    private static final long TRIAL_BUDGET_MS = 200;

    private HandOffLatency() {
    }

    /**
     * Measures the round trip between two spinning threads.
     *
     * @return nanoseconds per round trip (median of the trials)
     * @throws IllegalStateException if interrupted
     */
    public static synchronized double measureNanos() {
        double[] ns = new double[TRIALS];
        for (int i = 0; i < TRIALS; i++) {
            ns[i] = trial();
        }
        Arrays.sort(ns);
        return ns[TRIALS / 2];
    }

    private static double trial() {
        AtomicLong ping = new AtomicLong();
        AtomicLong pong = new AtomicLong();
        Thread echo = new Thread(() -> {
            long seen = 0;
            for (long v; (v = ping.get()) >= 0; ) {
                if (v != seen) {
                    seen = v;
                    pong.set(v);
                } else {
                    Thread.onSpinWait();
                }
            }
        }, "spindle-hand-off-echo");
        echo.setDaemon(true);
        echo.start();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TRIAL_BUDGET_MS);
        int warm = TRIPS / 10;
        long start = 0L;
        long done = 0L;
        try {
            trips:
            for (long i = 1; i <= warm + TRIPS; i++) {
                if (i == warm + 1) {
                    start = System.nanoTime();
                }
                ping.set(i);
                for (int spins = 1; pong.get() != i; spins++) {
                    if ((spins & 1023) == 0 && System.nanoTime() - deadline > 0) {
                        break trips;
                    }
                    Thread.onSpinWait();
                }
                if (i > warm) {
                    done++;
                }
            }
            long elapsed = System.nanoTime() - start;
            return done == 0 ? Double.NaN : elapsed / (double) done;
        } finally {
            ping.set(-1);
            try {
                echo.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while measuring the hand-off latency", e);
            }
        }
    }
}
