package dev.spindle.bench.futures;

import dev.spindle.Future;

/** Sum of a binary tree; the left subtree is a potential future. */
public final class DirectiveTreeSum implements DirectiveCode<TreeSum.Tree, Long> {
    @Override
    public Long run(TreeSum.Tree t) {
        long total = 0;
        for (int r = 0; r < t.reps(); r++) {
            total += sum(t.root());
        }
        return total;
    }

    static long sum(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        @Future long left = sum(n.left);
        long right = sum(n.right);
        return left + right + n.value;
    }

    private final java.util.Map<TreeSum.Tree, Long> counts = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    @Override
    public long potentialFutures(TreeSum.Tree t) {
        return counts.computeIfAbsent(t, x -> nodes(x.root()) * x.reps());
    }

    private static long nodes(TreeSum.Node n) {
        return n == null ? 0 : 1 + nodes(n.left) + nodes(n.right);
    }
}
