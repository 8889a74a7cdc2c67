package dev.spindle.bench.futures;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.Arrays;
import java.util.Locale;

/**
 * The per-future cost of the call form in one JVM, for comparing builds of the runtime: Fib
 * ({@link FutureFib#fib}, {@code fib(n)}) or a tree sum ({@link TreeSum#spindle}, a tree of
 * 2<sup>22</sup> nodes), each against its plain recursion and, for Fib, the woven directive
 * ({@link DirectiveFib}), on a pool of {@code P} workers. Prints the median of the last 15 of 21
 * runs and the bytes all threads allocated per future in one more run — where that is not 0,
 * C2 did not remove the handle. Usage: {@code java -Xms2g -Xmx2g -cp
 * spindle-bench/target/spindle-bench.jar dev.spindle.bench.futures.CallFormProbe fib|fib-seq|fib-directive|tree|tree-seq
 * [n] [P]}. See docs/PERFORMANCE.md, futures suite, "Sixteenth session".
 */
public final class CallFormProbe {
    private static final int RUNS = 21;
    private static final int WARM = 6;
    private static final int TREE_NODES = 1 << 22;

    private CallFormProbe() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("give a form: fib, fib-seq, fib-directive, tree or tree-seq");
        }
        String form = args[0];
        if (!java.util.List.of("fib", "fib-seq", "fib-directive", "tree", "tree-seq").contains(form)) {
            throw new IllegalArgumentException("no form " + form + "; give fib, fib-seq, fib-directive, tree or tree-seq");
        }
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 38;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1: " + workers);
        }
        boolean tree = form.startsWith("tree");
        TreeSum.Node root = tree ? TreeSum.build(0, TREE_NODES) : null;
        long expected = tree ? TreeSum.seq(root) : FutureFib.seqFib(n);
        double futures = tree ? TREE_NODES : FutureFib.seqFib(n + 1) - 1;   // calls of fib with n >= 2
        try (SpindlePool pool = new SpindlePool(workers)) {
            double[] ms = new double[RUNS];
            for (int r = 0; r < RUNS; r++) {
                long t0 = System.nanoTime();
                long v = pool.invoke(run(form, n, root));
                ms[r] = (System.nanoTime() - t0) / 1e6;
                if (v != expected) {
                    throw new AssertionError(form + " gave " + v + ", expected " + expected);
                }
            }
            long before = AllThreadsAllocation.bytes();
            pool.invoke(run(form, n, root));
            long after = AllThreadsAllocation.bytes();
            Arrays.sort(ms, WARM, RUNS);
            System.out.printf(Locale.ROOT, "%-13s P=%d median of the last %d runs %.1f ms, %.2f bytes per future%n",
                    form, workers, RUNS - WARM, ms[WARM + (RUNS - WARM) / 2], (after - before) / futures);
        }
    }

    private static Task<Long> run(String form, int n, TreeSum.Node root) {
        return new Task<>() {
            @Override
            protected Long compute() {
                return switch (form) {
                    case "fib" -> FutureFib.fib(n);
                    case "fib-seq" -> FutureFib.seqFib(n);
                    case "fib-directive" -> new DirectiveFib().run(n);
                    case "tree" -> TreeSum.spindle(root);
                    case "tree-seq" -> TreeSum.seq(root);
                    default -> throw new IllegalStateException("checked in main: " + form);
                };
            }
        };
    }

}
