package dev.spindle.bench.loops;

import dev.spindle.loop.IntRangeBody;

/**
 * Seed 003's JTH: every parallel loop creates {@code workers - 1} new threads, gives each a static
 * block, runs block 0 itself and joins them.
 */
final class ThreadPerLoop extends LoopRunner {
    private final int workers;

    ThreadPerLoop(int workers) {
        this.workers = workers;
    }

    @Override
    void loop(int from, int to, IntRangeBody body) {
        if (from >= to) {
            return;
        }
        Thread[] threads = new Thread[workers - 1];
        for (int k = 1; k < workers; k++) {
            int lo = blockStart(from, to, workers, k), hi = blockStart(from, to, workers, k + 1);
            threads[k - 1] = new Thread(() -> {
                if (lo < hi) {
                    body.run(lo, hi);
                }
            });
            threads[k - 1].start();
        }
        int hi0 = blockStart(from, to, workers, 1);
        if (from < hi0) {
            body.run(from, hi0);
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while joining a loop thread", e);
            }
        }
    }
}
