package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.LazyFuture;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * 0/1 knapsack by branch and bound (Satin's Knapsack, DBLFutures Table 1): depth-first over
 * take / leave decisions in value-density order, pruned by the fractional (LP) bound against the
 * best value found so far. The spindle variant makes the "take" branch, which the serial search
 * visits first, a future; the baselines spawn the "leave" branch. Items with values equal to even
 * weights and an odd capacity (a subset-sum instance that can never be filled exactly) keep the
 * bound weak so the tree is large. The parallel variants share the best value, so they may prune
 * differently, but the optimum is the same.
 */
public final class Knapsack extends FutureProgram<Knapsack.Items, Long> {

    /** Items in decreasing value density, and the capacity. */
    public record Items(long[] weight, long[] value, long capacity) {
    }

    @Override
    public String name() {
        return "Knapsack";
    }

    @Override
    public Items prepare(Size size) {
        int n = size.pick(22, 28, 32);
        SplittableRandom r = new SplittableRandom(30);
        Integer[] idx = new Integer[n];
        long[] w = new long[n];
        long[] v = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            w[i] = 2 * (1000 + r.nextInt(9000));     // even weights, value = weight: a subset-sum
            v[i] = w[i];                              // instance whose LP bound stays weak
            total += w[i];
            idx[i] = i;
        }
        Arrays.sort(idx, Comparator.comparingDouble(i -> -(double) v[i] / w[i]));
        long[] ws = new long[n];
        long[] vs = new long[n];
        for (int i = 0; i < n; i++) {
            ws[i] = w[idx[i]];
            vs[i] = v[idx[i]];
        }
        return new Items(ws, vs, total / 2 | 1);           // odd: never filled exactly, so never "done"
    }

    @Override
    public String describe(Size size) {
        return size.pick(22, 28, 32) + " items (subset-sum weights), branch and bound";
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{2, 4, 6, 8, 10, 12, 14, 16};
    }

    @Override
    protected int tunedCutoff() {
        return 8;
    }

    @Override
    public String mismatch(Long expected, Long actual) {
        return exact(expected, actual);
    }

    /** Value plus the fractional fill of the remaining capacity from item i on. */
    public static double bound(Items it, int i, long weight, long value) {
        long room = it.capacity - weight;
        double b = value;
        for (; i < it.weight.length; i++) {
            if (it.weight[i] <= room) {
                room -= it.weight[i];
                b += it.value[i];
            } else {
                return b + (double) it.value[i] * room / it.weight[i];
            }
        }
        return b;
    }

    @Override
    protected Long seq(Items it) {
        long[] best = {0};
        seq(it, 0, 0, 0, best);
        return best[0];
    }

    static void seq(Items it, int i, long weight, long value, long[] best) {
        if (value > best[0]) {
            best[0] = value;
        }
        if (i == it.weight.length || bound(it, i, weight, value) <= best[0]) {
            return;
        }
        if (weight + it.weight[i] <= it.capacity) {
            seq(it, i + 1, weight + it.weight[i], value + it.value[i], best);
        }
        seq(it, i + 1, weight, value, best);
    }

    public static void offer(AtomicLong best, long value) {
        for (long b = best.get(); value > b; b = best.get()) {
            if (best.compareAndSet(b, value)) {
                return;
            }
        }
    }

    @Override
    protected Long spindle(Items it) {
        AtomicLong best = new AtomicLong();
        spindle(it, 0, 0, 0, best);
        return best.get();
    }

    static void spindle(Items it, int i, long weight, long value, AtomicLong best) {
        offer(best, value);
        if (i == it.weight.length || bound(it, i, weight, value) <= best.get()) {
            return;
        }
        // The "take" branch, searched first by the sequential code, is the future: a future that
        // runs at its creation (all but the few the runtime keeps latent) keeps the sequential
        // search order, and so its pruning. It checks the fit itself, as the directive's take()
        // does, so the node has one path: one handle, always built, and the two recursive calls
        // of the sequential search. (A handle created only when the item fits, null otherwise,
        // stays allocated where it merges with null: 40 bytes per future. Two paths instead
        // compiled into a slow mode in about half the JVMs. PERFORMANCE.md, futures suite,
        // "Thirty-second session".)
        LazyFuture<Void> take = Spindle.future(() -> {
            if (weight + it.weight[i] <= it.capacity) {
                spindle(it, i + 1, weight + it.weight[i], value + it.value[i], best);
            }
            return null;
        });
        spindle(it, i + 1, weight, value, best);
        take.touch();
    }

    @Override
    protected Long spawned(Items it, Spawner sp, int cutoff) {
        AtomicLong best = new AtomicLong();
        spawned(it, 0, 0, 0, best, sp, cutoff);
        return best.get();
    }

    static void spawned(Items it, int i, long weight, long value, AtomicLong best, Spawner sp, int cutoff) {
        offer(best, value);
        if (i == it.weight.length || bound(it, i, weight, value) <= best.get()) {
            return;
        }
        boolean fits = weight + it.weight[i] <= it.capacity;
        if (cutoff > 0 && i >= cutoff) {
            if (fits) {
                spawned(it, i + 1, weight + it.weight[i], value + it.value[i], best, sp, cutoff);
            }
            spawned(it, i + 1, weight, value, best, sp, cutoff);
            return;
        }
        Future<Object> leave = sp.spawn(() -> {
            spawned(it, i + 1, weight, value, best, sp, cutoff);
            return null;
        });
        if (fits) {
            spawned(it, i + 1, weight + it.weight[i], value + it.value[i], best, sp, cutoff);
        }
        sp.join(leave);
    }
}
