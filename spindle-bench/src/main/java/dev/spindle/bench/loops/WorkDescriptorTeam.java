package dev.spindle.bench.loops;

import dev.spindle.loop.IntRangeBody;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Phaser;

/**
 * Seed 003's WD, its best transformation: a team of {@code workers - 1} threads created once
 * (a fixed ExecutorService), fed one shared work descriptor per loop; the caller runs block 0 and
 * waits for the team at a latch.
 */
final class WorkDescriptorTeam extends LoopRunner {
    private final int workers;
    private final ExecutorService team;

    WorkDescriptorTeam(int workers) {
        this.workers = workers;
        this.team = workers > 1 ? Executors.newFixedThreadPool(workers - 1) : null;
    }

    /** The shared descriptor of one loop. */
    private static final class Descriptor {
        final int from, to, workers;
        final IntRangeBody body;
        final Phaser done;

        Descriptor(int from, int to, int workers, IntRangeBody body) {
            this.from = from;
            this.to = to;
            this.workers = workers;
            this.body = body;
            this.done = new Phaser(workers);
        }

        void runBlock(int k) {
            try {
                int lo = blockStart(from, to, workers, k), hi = blockStart(from, to, workers, k + 1);
                if (lo < hi) {
                    body.run(lo, hi);
                }
            } finally {
                done.arrive();
            }
        }
    }

    @Override
    void loop(int from, int to, IntRangeBody body) {
        if (from >= to) {
            return;
        }
        if (team == null) {
            body.run(from, to);
            return;
        }
        Descriptor d = new Descriptor(from, to, workers, body);
        for (int k = 1; k < workers; k++) {
            int member = k;
            team.execute(() -> d.runBlock(member));
        }
        d.runBlock(0);
        d.done.awaitAdvance(0);
    }

    @Override
    public void close() {
        if (team != null) {
            team.close();
        }
    }
}
