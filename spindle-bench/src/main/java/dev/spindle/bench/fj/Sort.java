package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Sort (FJTask paper §4, after Cilk's cilksort): sort four quarters in parallel, merge them
 * pairwise in parallel into a buffer, merge the two halves back; merges split the larger run at
 * its middle and binary-search the other, so they run in parallel too. Below
 * {@value #SORT_THRESHOLD} elements a quarter is sorted with {@link Arrays#sort(int[], int, int)};
 * below {@value #MERGE_THRESHOLD} a merge is sequential.
 */
public final class Sort implements Benchmark<int[], int[]> {

    static final int SORT_THRESHOLD = 1 << 13;
    static final int MERGE_THRESHOLD = 1 << 13;

    @Override
    public String name() {
        return "Sort";
    }

    @Override
    public int[] prepare(Size size) {
        int n = size.pick(1 << 18, 10_000_000, 50_000_000);
        SplittableRandom rnd = new SplittableRandom(1234);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = rnd.nextInt();
        }
        return a;
    }

    @Override
    public int[] fresh(int[] input) {
        return input.clone();
    }

    @Override
    public String describe(Size size) {
        return size.pick(1 << 18, 10_000_000, 50_000_000) + " random ints";
    }

    @Override
    public List<Variant<int[], int[]>> variants() {
        return Forker.variants(fork -> a -> new Algorithm(fork).sortAll(a));
    }

    @Override
    public String mismatch(int[] expected, int[] actual) {
        if (Arrays.equals(expected, actual)) {
            return null;
        }
        int i = Arrays.mismatch(expected, actual);
        return "arrays differ at index " + i;
    }

    /** Cilksort written once against a {@link Forker}. */
    static final class Algorithm {
        private final Forker fork;

        Algorithm(Forker fork) {
            this.fork = fork;
        }

        int[] sortAll(int[] a) {
            int[] tmp = new int[a.length];
            sort(a, tmp, 0, a.length);
            return a;
        }

        /** Sorts a[lo, lo+n) using tmp[lo, lo+n) as scratch. */
        void sort(int[] a, int[] tmp, int lo, int n) {
            if (n <= SORT_THRESHOLD) {
                Arrays.sort(a, lo, lo + n);
                return;
            }
            int q = n >>> 2;
            int l1 = lo, l2 = lo + q, l3 = lo + 2 * q, l4 = lo + 3 * q, end = lo + n;
            fork.all(() -> sort(a, tmp, l1, q), () -> sort(a, tmp, l2, q),
                    () -> sort(a, tmp, l3, q), () -> sort(a, tmp, l4, end - l4));
            fork.both(() -> merge(a, l1, l2, a, l2, l3, tmp, l1),
                    () -> merge(a, l3, l4, a, l4, end, tmp, l3));
            merge(tmp, l1, l3, tmp, l3, end, a, l1);
        }

        /** Merges sorted x[xl, xh) and y[yl, yh) into d[dl, ...). */
        void merge(int[] x, int xl, int xh, int[] y, int yl, int yh, int[] d, int dl) {
            int nx = xh - xl, ny = yh - yl;
            if (nx + ny <= MERGE_THRESHOLD) {
                seqMerge(x, xl, xh, y, yl, yh, d, dl);
                return;
            }
            if (nx < ny) {
                merge(y, yl, yh, x, xl, xh, d, dl);
                return;
            }
            int xm = (xl + xh) >>> 1;
            int split = lowerBound(y, yl, yh, x[xm]);
            int dm = dl + (xm - xl) + (split - yl);
            d[dm] = x[xm];
            fork.both(() -> merge(x, xl, xm, y, yl, split, d, dl),
                    () -> merge(x, xm + 1, xh, y, split, yh, d, dm + 1));
        }

        static int lowerBound(int[] a, int lo, int hi, int key) {
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (a[mid] < key) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        static void seqMerge(int[] x, int xl, int xh, int[] y, int yl, int yh, int[] d, int dl) {
            int i = xl, j = yl, k = dl;
            while (i < xh && j < yh) {
                int xv = x[i], yv = y[j];
                if (xv <= yv) {
                    d[k++] = xv;
                    i++;
                } else {
                    d[k++] = yv;
                    j++;
                }
            }
            while (i < xh) {
                d[k++] = x[i++];
            }
            while (j < yh) {
                d[k++] = y[j++];
            }
        }
    }
}
