package dev.spindle.bench.futures;

import dev.spindle.Future;

/** Quicksort; the left part is a potential future. */
public final class DirectiveQuicksort implements DirectiveCode<int[], int[]> {
    @Override
    public int[] run(int[] a) {
        partitions = sort(a, 0, a.length - 1);
        return a;
    }

    /** Partitions of the last run: each makes one potential future. */
    private volatile long partitions;

    @Override
    public long potentialFutures(int[] a) {
        return partitions;
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
