package dev.spindle.bench.futures;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How much the depth at which a recursive tree walk starts changes its speed on this JVM. C2
 * inlines a recursive call {@code MaxRecursiveInlineLevel} (default 1) times, so a compiled
 * {@code sum} handles two tree levels per real call, and whether the last level (the leaves'
 * null children) falls on an inlined call or on a real one depends on the parity of the depth
 * the walk started at. The probe sums TreeSum's trees whole (depth 0), as the sum of the two
 * subtrees of the root (depth 1), and as the sum of the four grandchildren subtrees (depth 2): the
 * same nodes in the same order, with the same method, one and two levels lower. A baseline that
 * starts its sequential walks one level down (fjp-tuned with a depth-1 cutoff) gets the
 * difference for free; see docs/PERFORMANCE.md, "TreeSum and the JIT's recursive inlining". Run:
 * {@code java -Xms4g -Xmx8g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar dev.spindle.bench.futures.InliningParity [rounds]}
 * (add {@code -XX:MaxRecursiveInlineLevel=0} or {@code =2} to see the effect vanish or change period).
 * With {@code woven} as its first argument it measures the woven serial method instead:
 * {@link TreeSum#spindle} over the 2<sup>24</sup> − 1-node tree on a pool of one worker, entered at
 * the root and at every subtree of depth 1 to 4 in turn — where a pool of two workers starts its
 * serial walks below the frames that keep latent futures (docs/PERFORMANCE.md, futures suite,
 * "Thirty-third session").
 */
public final class InliningParity {
    private InliningParity() {
    }

    static long sum(TreeSum.Node n) {
        return n == null ? 0 : sum(n.left) + sum(n.right) + n.value;
    }

    private static long fromDepth0(TreeSum.Node r) {
        return sum(r);
    }

    private static long fromDepth1(TreeSum.Node r) {
        return sum(r.left) + sum(r.right) + r.value;
    }

    private static long fromDepth2(TreeSum.Node r) {
        TreeSum.Node a = r.left;
        TreeSum.Node b = r.right;
        return sum(a.left) + sum(a.right) + sum(b.left) + sum(b.right) + a.value + b.value + r.value;
    }

    /**
     * @param args optional: rounds per tree (default 40; the first quarter is warm-up)
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("woven")) {
            woven(args.length > 1 ? Integer.parseInt(args[1]) : 30);
            return;
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        if (rounds < 4) {
            throw new IllegalArgumentException("rounds must be at least 4, got " + rounds);
        }
        System.out.printf(Locale.ROOT, "%-10s %6s %12s %12s %12s %8s%n", "tree", "sums", "depth 0 ms", "depth 1 ms", "depth 2 ms", "0 / 1");
        int[][] trees = {{(1 << 10) - 1, 8192}, {(1 << 20) - 1, 4}, {(1 << 24) - 1, 1}};
        for (int[] tree : trees) {
            TreeSum.Node root = TreeSum.build(0, tree[0]);
            int reps = tree[1];
            long expected = (long) tree[0] * (tree[0] - 1) / 2 * reps;
            double[][] t = new double[3][rounds - rounds / 4];
            for (int r = 0; r < rounds; r++) {
                for (int d = 0; d < 3; d++) {
                    long s = 0;
                    long t0 = System.nanoTime();
                    for (int i = 0; i < reps; i++) {
                        s += d == 0 ? fromDepth0(root) : d == 1 ? fromDepth1(root) : fromDepth2(root);
                    }
                    long ns = System.nanoTime() - t0;
                    if (s != expected) {
                        throw new AssertionError("depth " + d + ": sum " + s + ", expected " + expected);
                    }
                    if (r >= rounds / 4) {
                        t[d][r - rounds / 4] = ns / 1e6;
                    }
                }
            }
            double m0 = median(t[0]), m1 = median(t[1]), m2 = median(t[2]);
            System.out.printf(Locale.ROOT, "%-10s %6d %12.2f %12.2f %12.2f %8.2f%n", tree[0] + "", reps, m0, m1, m2, m0 / m1);
        }
    }

    /** {@link TreeSum#spindle} entered at depths 0 to 4, {@code rounds} sums of the whole tree per depth. */
    private static void woven(int rounds) {
        if (rounds < 4) {
            throw new IllegalArgumentException("rounds must be at least 4, got " + rounds);
        }
        int nodes = (1 << 24) - 1;
        TreeSum.Node root = TreeSum.build(0, nodes);
        long expected = (long) nodes * (nodes - 1) / 2;
        System.out.printf(Locale.ROOT, "%-6s %12s%n", "depth", "woven ms");
        try (SpindlePool pool = new SpindlePool(1)) {
            List<TreeSum.Node> level = List.of(root);
            for (int d = 0; d <= 4; d++) {
                List<TreeSum.Node> subtrees = level;
                long below = expected - levelsAbove(root, d);
                double[] t = new double[rounds - rounds / 4];
                for (int r = 0; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    long s = pool.invoke(new Task<Long>() {
                        @Override
                        protected Long compute() {
                            long sum = 0;
                            for (TreeSum.Node n : subtrees) {
                                sum += TreeSum.spindle(n);
                            }
                            return sum;
                        }
                    });
                    long ns = System.nanoTime() - t0;
                    if (s != below) {
                        throw new AssertionError("depth " + d + ": sum " + s + " below it, expected " + below);
                    }
                    if (r >= rounds / 4) {
                        t[r - rounds / 4] = ns / 1e6;
                    }
                }
                System.out.printf(Locale.ROOT, "%-6d %12.2f%n", d, median(t));
                List<TreeSum.Node> next = new ArrayList<>();
                for (TreeSum.Node n : level) {
                    next.add(n.left);
                    next.add(n.right);
                }
                level = next;
            }
        }
    }

    /** The sum of the values of the nodes above depth {@code d}. */
    private static long levelsAbove(TreeSum.Node n, int d) {
        return d == 0 || n == null ? 0 : n.value + levelsAbove(n.left, d - 1) + levelsAbove(n.right, d - 1);
    }

    /** The median of {@code a} (the upper one of an even count); {@code a} is left as it was. */
    static double median(double[] a) {
        double[] b = a.clone();
        Arrays.sort(b);
        return b[b.length / 2];
    }
}
