package dev.spindle.bench.futures;

import dev.spindle.forkjoin.RecursiveTask;
import dev.spindle.runtime.FutureCounts;
import dev.spindle.runtime.PoolStatistics;
import dev.spindle.runtime.SpindlePool;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the latent futures a worker keeps cost: TreeSum-1K in the call form ({@link TreeSum#spindle},
 * 8192 sums of 1023 nodes per run) on one pool after another, in one JVM, with the median of 7
 * timed runs after 30 warm-up runs, the megabytes allocated per run and the futures' counts. Run
 * with {@code -Dspindle.future.keep=K} to set what a worker keeps and {@code -Dspindle.spawn=never}
 * to take promotions out; the arguments are the pools' sizes in order:
 * {@code java -Xms2g -Xmx2g -Dspindle.future.keep=1 -cp spindle-bench/target/spindle-bench.jar
 * dev.spindle.bench.futures.LatentKeepProbe 1 2}. See docs/PERFORMANCE.md, futures suite, "Fewer
 * latent futures at two workers".
 */
public final class LatentKeepProbe {
    private static final int REPS = 8192;

    private LatentKeepProbe() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("give the pools' sizes, e.g. 1 2");
        }
        TreeSum.Node root = TreeSum.build(0, 1023);
        long expected = 0;
        for (int r = 0; r < REPS; r++) {
            expected += TreeSum.seq(root);
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (String a : args) {
            int workers;
            try {
                workers = Integer.parseInt(a);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a pool size: \"" + a + "\"", e);
            }
            try (SpindlePool pool = new SpindlePool(workers)) {
                for (int w = 0; w < 30; w++) {
                    run(pool, root, expected);
                }
                PoolStatistics before = pool.statistics();
                long allocated = mx.getTotalThreadAllocatedBytes();
                long[] ns = new long[7];
                for (int i = 0; i < ns.length; i++) {
                    long t0 = System.nanoTime();
                    run(pool, root, expected);
                    ns[i] = System.nanoTime() - t0;
                }
                double mb = (mx.getTotalThreadAllocatedBytes() - allocated) / 1e6 / ns.length;
                FutureCounts c = pool.statistics().minus(before).futures();
                Arrays.sort(ns);
                System.out.printf(Locale.ROOT, "P=%d median %.1f ms, %.1f MB per run, %s%n",
                        workers, ns[ns.length / 2] / 1e6, mb, c);
            }
        }
    }

    private static void run(SpindlePool pool, TreeSum.Node root, long expected) {
        long sum = pool.invoke(new RecursiveTask<Long>() {
            @Override
            protected Long compute() {
                long total = 0;
                for (int r = 0; r < REPS; r++) {
                    total += TreeSum.spindle(root);
                }
                return total;
            }
        });
        if (sum != expected) {
            throw new AssertionError("TreeSum-1K: " + sum + ", expected " + expected);
        }
    }
}
