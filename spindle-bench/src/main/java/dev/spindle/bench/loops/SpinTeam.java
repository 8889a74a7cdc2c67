package dev.spindle.bench.loops;

import dev.spindle.loop.IntRangeBody;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The strongest hand-written baseline for a sequence of short loops: an OpenMP-style team of
 * {@code workers - 1} threads created once that <em>spins</em> between loops for as long as a
 * computation runs (as an OpenMP runtime does with an infinite KMP_BLOCKTIME / OMP_WAIT_POLICY
 * active), and static blocks: the caller publishes one descriptor with a volatile write, runs
 * block 0 and spins until every member has finished its block. No task objects, no queue, no
 * wake-up inside a computation. Between computations the members park, so the spinning does not
 * steal a CPU from the other variants.
 *
 * <p>It is not a general loop runtime: one thread (the one inside {@link #run}) starts loops,
 * a loop started from elsewhere or inside a loop body runs sequentially, and it has no load
 * balancing. It is what the loop machinery's own overhead is measured against: on this VM its
 * Ts/T2 is the best speed-up a program's loops can show at that moment (memory bandwidth and the
 * host's scheduling included), which the runner's generic {@code ceiling} does not capture for a
 * memory-bound program.
 */
final class SpinTeam extends LoopRunner {
    private final int workers;
    private final Member[] members;
    /** The thread inside {@link #run}, the only one whose loops the team runs. */
    private volatile Thread owner;
    /** True while a computation runs: the members spin rather than park. */
    private volatile boolean active;
    /** The owner is inside a loop (a loop its body starts runs sequentially); owner thread only. */
    private boolean inLoop;

    /** The current loop; written by the caller before {@link #sequence}, read after it. */
    private IntRangeBody body;
    private int from;
    private int to;
    /** Bumped once per loop: the members' start signal. */
    private volatile long sequence;
    private volatile boolean closed;

    SpinTeam(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1: " + workers);
        }
        this.workers = workers;
        this.members = new Member[workers - 1];
        for (int k = 1; k < workers; k++) {
            Member m = new Member(k);
            members[k - 1] = m;
            m.start();
        }
    }

    /** A team thread: spins on {@link #sequence} while a computation runs, parks otherwise. */
    private final class Member extends Thread {
        final int block;
        /** The last loop this member finished. */
        volatile long finished;
        /** A failure of this member's block in loop {@link #finished}, or null. */
        volatile Throwable failure;

        Member(int block) {
            super("spin-team-" + block);
            this.block = block;
            setDaemon(true);
        }

        @Override
        public void run() {
            long seen = 0L;
            while (!closed) {
                long s = sequence;
                if (s == seen) {
                    if (!active) {
                        LockSupport.park(SpinTeam.this);       // re-checks: run() unparks after setting active
                    } else {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                seen = s;
                Throwable thrown = null;
                try {
                    int lo = blockStart(from, to, workers, block), hi = blockStart(from, to, workers, block + 1);
                    if (lo < hi) {
                        body.run(lo, hi);
                    }
                } catch (Throwable t) {
                    thrown = t;
                }
                failure = thrown;
                finished = s;
            }
        }
    }

    @Override
    <R> R run(Supplier<R> computation) {
        owner = Thread.currentThread();
        active = true;
        for (Member m : members) {
            LockSupport.unpark(m);
        }
        try {
            return computation.get();
        } finally {
            active = false;
            owner = null;
        }
    }

    @Override
    void loop(int from, int to, IntRangeBody body) {
        if (from >= to) {
            return;
        }
        if (members.length == 0 || Thread.currentThread() != owner || inLoop) {
            body.run(from, to);                             // one worker, a nested loop, or outside run()
            return;
        }
        inLoop = true;
        this.body = body;
        this.from = from;
        this.to = to;
        long s = sequence + 1;
        sequence = s;                                       // publishes body, from, to
        Throwable first = null;
        try {
            int hi = blockStart(from, to, workers, 1);
            body.run(from, hi);
        } catch (Throwable t) {
            first = t;
        }
        for (Member m : members) {
            while (m.finished != s) {
                Thread.onSpinWait();
            }
            Throwable t = m.failure;
            if (t != null) {
                if (first == null) {
                    first = t;
                } else {
                    first.addSuppressed(t);
                }
            }
        }
        inLoop = false;
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Member m : members) {
            LockSupport.unpark(m);
        }
    }
}
