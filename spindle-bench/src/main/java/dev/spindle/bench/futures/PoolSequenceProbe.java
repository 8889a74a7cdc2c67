package dev.spindle.bench.futures;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the code C2 compiled for one pool size costs in another: runs a program's spindle variant
 * on pools of the given sizes opened one after another in one JVM (each closed before the next),
 * and prints per pool the median of the last 10 of 15 runs and the megabytes all threads allocated
 * in one more run. A pool of one worker opened after a pool of two runs the code compiled while
 * both paths of the spawn decision (run now, keep latent) were taken, so "1,2,1" separates what
 * the two-worker code costs from what the second worker gains or loses (PERFORMANCE.md, futures
 * suite, "Seventeenth session"). Run with the runner's heap flags — without {@code AlwaysPreTouch}
 * the kernel's first-touch page faults on a growing heap are counted in:
 * {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar
 * dev.spindle.bench.futures.PoolSequenceProbe fib|tree|fft|adaptive|knapsack|quicksort|raytracer
 * [workers,workers,...]} (default {@code 1,2,1}). {@code fib} is fib(38) and {@code tree} a tree
 * sum of 2<sup>24</sup> nodes, both in the call form; the others are the futures suite's programs
 * at their default size, on a fresh copy of the input each run (not timed).
 */
public final class PoolSequenceProbe {
    private static final int RUNS = 15;
    private static final int WARM = 5;

    private PoolSequenceProbe() {
    }

    /**
     * Entry point.
     *
     * @param args the program, and optionally the pool sizes, comma separated
     */
    public static void main(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException(
                    "give a program: fib, tree, fft, adaptive, knapsack, quicksort or raytracer");
        }
        List<Integer> pools = new ArrayList<>();
        for (String p : (args.length > 1 ? args[1] : "1,2,1").split(",")) {
            int w = Integer.parseInt(p.trim());
            if (w < 1) {
                throw new IllegalArgumentException("a pool needs at least one worker: " + p);
            }
            pools.add(w);
        }
        Work work = work(args[0]);
        for (int workers : pools) {
            double[] ms = new double[RUNS];
            long bytes;
            try (SpindlePool pool = new SpindlePool(workers)) {
                for (int r = 0; r < RUNS; r++) {
                    work.prepare();
                    long t0 = System.nanoTime();
                    pool.invoke(task(work));
                    ms[r] = (System.nanoTime() - t0) / 1e6;
                }
                work.prepare();
                long before = AllThreadsAllocation.bytes();
                pool.invoke(task(work));
                bytes = AllThreadsAllocation.bytes() - before;
            }
            Arrays.sort(ms, WARM, RUNS);
            System.out.printf(Locale.ROOT, "%-10s pool of %d: median of the last %d runs %.1f ms, %.1f MB per run%n",
                    args[0], workers, RUNS - WARM, ms[WARM + (RUNS - WARM) / 2], bytes / 1e6);
        }
    }

    /** One run of a program, checked against its sequential result: untimed set-up, then the timed part. */
    private interface Work {
        /** Untimed: a fresh copy of the input for programs that work in place. */
        default void prepare() {
        }

        void run();
    }

    private static Work work(String program) {
        return switch (program) {
            case "fib" -> {
                long expected = FutureFib.seqFib(38);
                yield () -> check(program, FutureFib.fib(38) == expected);
            }
            case "tree" -> {
                TreeSum.Node root = TreeSum.build(0, 1 << 24);
                long expected = TreeSum.seq(root);
                yield () -> check(program, TreeSum.spindle(root) == expected);
            }
            case "fft" -> suiteProgram(new Fft());
            case "adaptive" -> suiteProgram(new AdaptiveIntegration());
            case "knapsack" -> suiteProgram(new Knapsack());
            case "quicksort" -> suiteProgram(new Quicksort());
            case "raytracer" -> suiteProgram(new Raytracer());
            default -> throw new IllegalArgumentException("no program " + program
                    + "; give fib, tree, fft, adaptive, knapsack, quicksort or raytracer");
        };
    }

    /** A futures-suite program's spindle variant on a fresh copy of its default input each run. */
    private static <I, R> Work suiteProgram(FutureProgram<I, R> p) {
        I input = p.prepare(dev.spindle.bench.suite.Size.DEFAULT);
        R expected = p.seq(p.fresh(input));
        return new Work() {
            private I copy;

            @Override
            public void prepare() {
                copy = p.fresh(input);
            }

            @Override
            public void run() {
                String mismatch = p.mismatch(expected, p.spindle(copy));
                check(p.name() + (mismatch == null ? "" : ": " + mismatch), mismatch == null);
            }
        };
    }

    private static void check(String what, boolean ok) {
        if (!ok) {
            throw new AssertionError(what + " gave a wrong result");
        }
    }

    private static Task<Void> task(Work work) {
        return new Task<>() {
            @Override
            protected Void compute() {
                work.run();
                return null;
            }
        };
    }
}
