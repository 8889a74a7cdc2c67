package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.LazyFuture;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.Future;

/**
 * Quicksort of random ints (DBLFutures Table 1): Hoare partition around the median of three, the
 * right part a future. No insertion-sort cut-off in any variant: the sequential kernel is the same.
 */
public final class Quicksort extends FutureProgram<int[], int[]> {

    @Override
    public String name() {
        return "Quicksort";
    }

    @Override
    public int[] prepare(Size size) {
        int n = 1 << size.pick(18, 24, 25);
        SplittableRandom r = new SplittableRandom(24);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.nextInt();
        }
        return a;
    }

    @Override
    public int[] fresh(int[] input) {
        return input.clone();
    }

    @Override
    public String describe(Size size) {
        return "2^" + size.pick(18, 24, 25) + " random ints";
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22};
    }

    @Override
    protected int tunedCutoff() {
        return 1 << 16;
    }

    @Override
    public String mismatch(int[] expected, int[] actual) {
        return Arrays.equals(expected, actual) ? null : "not sorted like the sequential run";
    }

    @Override
    protected int[] seq(int[] a) {
        seq(a, 0, a.length - 1);
        return a;
    }

    /** Hoare partition of a[lo..hi] (inclusive); returns j with a[lo..j] <= pivot <= a[j+1..hi]. */
    public static int partition(int[] a, int lo, int hi) {
        int mid = (lo + hi) >>> 1;
        if (a[mid] < a[lo]) {
            swap(a, mid, lo);
        }
        if (a[hi] < a[lo]) {
            swap(a, hi, lo);
        }
        if (a[hi] < a[mid]) {
            swap(a, hi, mid);
        }
        int pivot = a[mid];
        int i = lo - 1;
        int j = hi + 1;
        for (;;) {
            do {
                i++;
            } while (a[i] < pivot);
            do {
                j--;
            } while (a[j] > pivot);
            if (i >= j) {
                return j;
            }
            swap(a, i, j);
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    static void seq(int[] a, int lo, int hi) {
        if (lo >= hi) {
            return;
        }
        int p = partition(a, lo, hi);
        seq(a, lo, p);
        seq(a, p + 1, hi);
    }

    @Override
    protected int[] spindle(int[] a) {
        spindle(a, 0, a.length - 1);
        return a;
    }

    static void spindle(int[] a, int lo, int hi) {
        if (lo >= hi) {
            return;
        }
        int p = partition(a, lo, hi);
        LazyFuture<Void> left = Spindle.future(() -> {
            spindle(a, lo, p);
            return null;
        });
        spindle(a, p + 1, hi);
        left.touch();
    }

    @Override
    protected int[] spawned(int[] a, Spawner sp, int cutoff) {
        spawned(a, 0, a.length - 1, sp, cutoff);
        return a;
    }

    static void spawned(int[] a, int lo, int hi, Spawner sp, int cutoff) {
        if (hi - lo < cutoff) {
            seq(a, lo, hi);
            return;
        }
        if (lo >= hi) {
            return;
        }
        int p = partition(a, lo, hi);
        Future<Object> right = sp.spawn(() -> {
            spawned(a, p + 1, hi, sp, cutoff);
            return null;
        });
        spawned(a, lo, p, sp, cutoff);
        sp.join(right);
    }
}
