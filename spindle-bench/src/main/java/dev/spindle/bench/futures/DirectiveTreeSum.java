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
}
