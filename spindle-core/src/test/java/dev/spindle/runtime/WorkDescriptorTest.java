package dev.spindle.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;

/** {@link WorkDescriptor} on a pool: every member once, the slot, bad input, a member that throws. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkDescriptorTest {

    /** Counts the runs of each member; member {@code failing} (if any) throws on the owner. */
    static final class Counting extends WorkDescriptor {
        final AtomicIntegerArray runs;
        final int failing;

        Counting(int members, int failing) {
            this.runs = new AtomicIntegerArray(members);
            this.failing = failing;
        }

        @Override
        protected void runMember(int k, Worker owner) {
            runs.incrementAndGet(k);
            for (int i = 0; i < 2000; i++) {
                Thread.onSpinWait();                 // long enough for a hungry worker to claim some
            }
            if (k == failing && owner != null) {
                throw new IllegalStateException("member " + k + " failed");
            }
        }
    }

    static <T> T onWorker(SpindlePool pool, Supplier<T> body) throws Exception {
        return OnWorker.call(pool, body);
    }

    @Test
    void everyMemberRunsExactlyOnceAtAnyWorkerCount() throws Exception {
        for (int workers : new int[]{1, 2, 4}) {
            try (SpindlePool pool = new SpindlePool(workers)) {
                for (int members : new int[]{1, 2, 3, 7, 64}) {
                    for (int round = 0; round < 50; round++) {
                        Counting d = new Counting(members, -1);
                        boolean ran = onWorker(pool, () -> d.runAll((Worker) Thread.currentThread(), members));
                        assertTrue(ran, "the slot was free");
                        for (int k = 0; k < members; k++) {
                            assertEquals(1, d.runs.get(k), "member " + k + " of " + members + " at " + workers + " workers");
                        }
                    }
                }
            }
        }
    }

    @Test
    void aDescriptorStartedWhileTheSlotIsTakenRunsNothingAndTheSlotIsFreedAfterwards() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            Counting inner = new Counting(2, -1);
            boolean[] innerRan = new boolean[1];
            WorkDescriptor outer = new WorkDescriptor() {
                @Override
                protected void runMember(int k, Worker owner) {
                    if (k == 0) {
                        innerRan[0] = inner.runAll(owner, 2);
                    }
                }
            };
            boolean after = onWorker(pool, () -> {
                Worker w = (Worker) Thread.currentThread();
                outer.runAll(w, 2);
                return w.installed() == null && new Counting(2, -1).runAll(w, 2);
            });
            assertFalse(innerRan[0], "a second descriptor was installed over the first");
            assertEquals(0, inner.runs.get(0) + inner.runs.get(1), "the refused descriptor ran members");
            assertTrue(after, "the slot was not freed after the outer descriptor");
        }
    }

    @Test
    void badInputIsRejectedByValue() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            IllegalArgumentException e = onWorker(pool, () -> assertThrows(IllegalArgumentException.class,
                    () -> new Counting(1, -1).runAll((Worker) Thread.currentThread(), 0)));
            assertTrue(e.getMessage().contains("0"), e.getMessage());
            Worker someWorker = onWorker(pool, () -> (Worker) Thread.currentThread());
            IllegalStateException notOwner = assertThrows(IllegalStateException.class,
                    () -> new Counting(1, -1).runAll(someWorker, 1));
            assertTrue(notOwner.getMessage().contains(Thread.currentThread().getName()), notOwner.getMessage());
            Counting once = new Counting(1, -1);
            onWorker(pool, () -> once.runAll((Worker) Thread.currentThread(), 1));
            IllegalStateException twice = onWorker(pool, () -> assertThrows(IllegalStateException.class,
                    () -> once.runAll((Worker) Thread.currentThread(), 1)));
            assertTrue(twice.getMessage().contains("already run"), twice.getMessage());
        }
    }

    @Test
    void aMemberThatThrowsOnTheOwnerStopsItsClaimsAndIsRethrownAfterTheHelpersFinish() throws Exception {
        for (int workers : new int[]{1, 2}) {
            try (SpindlePool pool = new SpindlePool(workers)) {
                for (int round = 0; round < 20; round++) {
                    Counting d = new Counting(4, 0);
                    String message = onWorker(pool, () -> {
                        Worker w = (Worker) Thread.currentThread();
                        IllegalStateException e = assertThrows(IllegalStateException.class, () -> d.runAll(w, 4));
                        assertNull(w.installed(), "the slot still holds the descriptor");
                        return e.getMessage();
                    });
                    assertEquals("member 0 failed", message);
                    assertEquals(1, d.runs.get(0));
                    for (int k = 1; k < 4; k++) {
                        assertTrue(d.runs.get(k) <= 1, "member " + k + " ran " + d.runs.get(k) + " times");
                    }
                    if (workers == 1) {
                        assertEquals(0, d.runs.get(1) + d.runs.get(2) + d.runs.get(3), "the owner ran members after a failure");
                    }
                }
            }
        }
    }
}
