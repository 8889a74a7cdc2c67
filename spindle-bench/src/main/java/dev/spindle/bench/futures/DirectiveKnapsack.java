package dev.spindle.bench.futures;

import dev.spindle.Future;

import java.util.concurrent.atomic.AtomicLong;

/** Branch-and-bound 0/1 knapsack; the "take item i" branch is a potential future. */
public final class DirectiveKnapsack implements DirectiveCode<Knapsack.Items, Long> {
    @Override
    public Long run(Knapsack.Items it) {
        AtomicLong best = new AtomicLong();
        inner = search(it, 0, 0, 0, best);
        return best.get();
    }

    /** Inner nodes of the last run's search: each makes one potential future. */
    private volatile long inner;

    @Override
    public long potentialFutures(Knapsack.Items it) {
        return inner;
    }

    /** Returns the number of inner nodes visited (those that declare a @Future). */
    static int search(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return 0;
        }
        @Future int take = take(it, i, weight, value, best);
        int leave = search(it, i + 1, weight, value, best);
        return take + leave + 1;
    }

    static int take(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        if (weight + it.weight()[i] > it.capacity()) {
            return 0;
        }
        return search(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
    }
}
