package dev.spindle.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/** {@link Worker#awaitFuture}: what a waiting toucher may take from the worker running its task. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AwaitFutureTest {

    /** A task two threads may try to run, like a promoted future: running starts with a claim. */
    static final class ClaimedOnce extends Task<Void> {
        final AtomicBoolean claimed = new AtomicBoolean();
        volatile boolean ranAsTask;

        @Override
        protected boolean tryClaim() {
            return claimed.compareAndSet(false, true);
        }

        @Override
        protected boolean isClaimed() {
            return claimed.get();
        }

        @Override
        protected Void compute() {
            ranAsTask = true;
            return null;
        }
    }

    /**
     * Worker X shares an entry, then runs (as a steal, so with a floor above that entry) a task T
     * that worker Y waits for; the entry's claim is then taken — it is dead — and T shares work W
     * above the floor and waits until someone runs W. Thieves take the oldest element first, so
     * before the fix Y could take nothing above the dead entry, and X kept "offering work": Y
     * waited until T ended and T waited for Y.
     */
    @Test
    void aWaiterGetsPastADeadEntryBelowItsFloor() {
        try (SpindlePool pool = new SpindlePool(2)) {
            ClaimedOnce dead = new ClaimedOnce();
            AtomicReference<Thread> ranW = new AtomicReference<>();
            AtomicReference<Thread> ranT = new AtomicReference<>();
            CountDownLatch hStarted = new CountDownLatch(1);
            CountDownLatch deadShared = new CountDownLatch(1);
            Task<Void> w = new Task<>() {
                @Override
                protected Void compute() {
                    ranW.set(Thread.currentThread());
                    return null;
                }
            };
            Task<Void> t = new Task<>() {
                @Override
                protected Void compute() {
                    ranT.set(Thread.currentThread());
                    assertTrue(dead.tryClaim(), "nobody else claims the entry");   // its toucher ran it: the entry is dead
                    ((Worker) Thread.currentThread()).pushForOthers(w, true);
                    awaitTrue(w::isDone, "the worker waiting for this task never took the work it shared above a dead entry");
                    return null;
                }
            };
            Task<Void> h = new Task<>() {
                @Override
                protected Void compute() {
                    hStarted.countDown();
                    awaitTrue(() -> deadShared.getCount() == 0, "the other worker never shared the dead entry");
                    Worker y = (Worker) Thread.currentThread();
                    y.pushForOthers(t, true);
                    y.awaitFuture(t);
                    t.join();                                   // T's failure, if any, fails the test
                    return null;
                }
            };
            Task<Void> outer = new Task<>() {
                @Override
                protected Void compute() {
                    Worker x = (Worker) Thread.currentThread();
                    x.pushForOthers(h, true);
                    awaitTrue(() -> hStarted.getCount() == 0, "the other worker never took H");
                    x.pushForOthers(dead, true);
                    deadShared.countDown();
                    x.awaitFuture(h);                           // steals T from H's worker and runs it
                    h.join();
                    return null;
                }
            };
            pool.invoke(outer);
            assertNotNull(ranW.get());
            assertNotSame(ranT.get(), ranW.get(), "W was run by the worker waiting for T");
            assertFalse(dead.ranAsTask, "a claimed entry is dropped, never run");
        }
    }

    /**
     * A worker that steals a promoted task records how long it waited since its promotion: the
     * lag its waiters weigh against a split (a fresh worker's average moves 1/8 of the way to a
     * sample; a sample is capped at 20 µs).
     */
    @Test
    void aThiefAveragesHowLongPromotedTasksWaitedForIt() {
        try (SpindlePool pool = new SpindlePool(2)) {
            AtomicReference<Thread> ranIt = new AtomicReference<>();
            long promoted = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(1);   // a sample above the cap
            Task<Void> t = new Task<>() {
                @Override
                protected long promotedAt() {
                    return promoted;
                }

                @Override
                protected Void compute() {
                    ranIt.set(Thread.currentThread());
                    return null;
                }
            };
            Task<Void> owner = new Task<>() {
                @Override
                protected Void compute() {
                    Worker y = (Worker) Thread.currentThread();
                    y.pushForOthers(t, true);
                    y.awaitFuture(t);                           // never runs t itself: the other worker steals it
                    return null;
                }
            };
            pool.invoke(owner);
            t.join();
            Worker thief = (Worker) ranIt.get();
            assertEquals(20_000 >> 3, thief.stealLagNanos(), "one capped sample of a fresh worker");
        }
    }

    /** The patience is eight steal lags, never below 2 µs, never above the 20-µs spin. */
    @Test
    void aWaitersPatienceIsEightStealLagsWithinBounds() {
        assertEquals(2_000, Worker.splitPatienceNanos(0));
        assertEquals(2_000, Worker.splitPatienceNanos(100));
        assertEquals(8_000, Worker.splitPatienceNanos(1_000));
        assertEquals(20_000, Worker.splitPatienceNanos(5_000));
        assertEquals(20_000, Worker.splitPatienceNanos(Integer.MAX_VALUE));
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited 10 s: " + what);
            }
            Thread.onSpinWait();
        }
    }
}
