package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.LongFuture;

import java.util.concurrent.Future;

/**
 * The heartbeat papers' tree sum: the sum of a balanced binary tree of objects, the right subtree
 * a future at every node. One benchmark per tree size; a tree that sums in microseconds is summed
 * many times per sample, so timer resolution and per-run set-up do not distort it.
 */
public final class TreeSum extends FutureProgram<TreeSum.Tree, Long> {
    private final String label;
    private final int[] nodes;
    private final int[] reps;
    private final int tuned;

    /** A tree node. */
    public static final class Node {
        public final long value;
        public final Node left;
        public final Node right;

        Node(long value, Node left, Node right) {
            this.value = value;
            this.left = left;
            this.right = right;
        }
    }

    /**
     * A tree and how many sums make one sample.
     *
     * @param root the root
     * @param reps sums per sample
     */
    public record Tree(Node root, int reps) {
    }

    /**
     * @param label name suffix ("1K", "1M", "16M")
     * @param nodes node counts for small, default, large
     * @param reps  sums per sample for small, default, large
     * @param tuned the fjp-tuned depth cutoff found by {@code ./spindle tune} for this size
     */
    TreeSum(String label, int[] nodes, int[] reps, int tuned) {
        this.label = label;
        this.nodes = nodes;
        this.reps = reps;
        this.tuned = tuned;
    }

    @Override
    public String name() {
        return "TreeSum-" + label;
    }

    @Override
    public Tree prepare(Size size) {
        int i = size.ordinal();
        return new Tree(build(0, nodes[i]), reps[i]);
    }

    /** A balanced tree of {@code n} nodes with values first, first+1, ... in order. */
    static Node build(long first, int n) {
        if (n == 0) {
            return null;
        }
        int l = (n - 1) / 2;
        return new Node(first + l, build(first, l), build(first + l + 1, n - 1 - l));
    }

    @Override
    public String describe(Size size) {
        int i = size.ordinal();
        return nodes[i] + " nodes" + (reps[i] > 1 ? ", " + reps[i] + " sums per sample" : "");
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{1, 2, 3, 4, 6, 8, 10, 12, 14};
    }

    @Override
    protected int tunedCutoff() {
        return tuned;
    }

    @Override
    public String mismatch(Long expected, Long actual) {
        return exact(expected, actual);
    }

    @Override
    protected Long seq(Tree t) {
        long total = 0;
        for (int r = 0; r < t.reps; r++) {
            total += seq(t.root);
        }
        return total;
    }

    static long seq(Node n) {
        return n == null ? 0 : seq(n.left) + seq(n.right) + n.value;
    }

    @Override
    protected Long spindle(Tree t) {
        long total = 0;
        for (int r = 0; r < t.reps; r++) {
            total += spindle(t.root);
        }
        return total;
    }

    static long spindle(Node n) {
        if (n == null) {
            return 0;
        }
        LongFuture left = Spindle.futureLong(TreeSum::spindle, n.left);
        long right = spindle(n.right);
        return left.touchLong() + right + n.value;
    }

    @Override
    protected Long spawned(Tree t, Spawner sp, int cutoff) {
        long total = 0;
        for (int r = 0; r < t.reps; r++) {
            total += spawned(t.root, 0, sp, cutoff);
        }
        return total;
    }

    static long spawned(Node n, int depth, Spawner sp, int cutoff) {
        if (n == null) {
            return 0;
        }
        if (cutoff > 0 && depth >= cutoff) {
            return seq(n);
        }
        Future<Long> right = sp.spawn(() -> spawned(n.right, depth + 1, sp, cutoff));
        long left = spawned(n.left, depth + 1, sp, cutoff);
        return left + sp.join(right) + n.value;
    }
}
