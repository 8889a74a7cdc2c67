package dev.spindle.bench.futures;

import dev.spindle.Future;

/** Quicksort; the left part is a potential future. */
public final class DirectiveQuicksort implements DirectiveCode<int[], int[]> {
    @Override
    public int[] run(int[] a) {
        sort(a, 0, a.length - 1);
        return a;
    }

    /** Returns the number of partitions done. */
    static int sort(int[] a, int lo, int hi) {
        if (lo >= hi) {
            return 0;
        }
        int p = Quicksort.partition(a, lo, hi);
        @Future int left = sort(a, lo, p);
        int right = sort(a, p + 1, hi);
        return left + right + 1;
    }
}
