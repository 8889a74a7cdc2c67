package dev.spindle.deque;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.*;

class SplitDequeTest {

    @Test
    void ownerIsLifo() {
        SplitDeque<Integer> d = new SplitDeque<>(4);
        for (int i = 0; i < 100; i++) {
            d.push(i);
        }
        for (int i = 99; i >= 0; i--) {
            assertEquals(i, d.pop());
        }
        assertNull(d.pop());
    }

    /**
     * The ring is renewed every so many pushes, counted: a deque that empties between pushes
     * (a task that forks one child at a time and joins it) must not get a new ring at each push.
     * Regression: the test was on the top index, which comes back to 0, and every such push
     * allocated a ring (312 bytes per fork instead of 40).
     */
    @Test
    void pushesOntoAnEmptyDequeDoNotRenewTheRingEachTime() {
        SplitDeque<Integer> d = new SplitDeque<>();
        Integer e = 1;
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 100_000; i++) {      // past the growing renewal period's warm-up
            d.push(e);
            d.pop();
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            d.push(e);
            assertSame(e, d.pop());
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        // two renewals (every 64K pushes) of a 64-slot ring; a ring per push would be ~27 MB
        assertTrue(allocated < 64 * 1024, "100000 push/pop pairs allocated " + allocated + " bytes");
    }

    @Test
    void privateElementsAreInvisibleUntilShared() {
        SplitDeque<Integer> d = new SplitDeque<>();
        d.push(1);
        d.push(2);
        assertNull(d.steal(), "a private element must not be stealable");
        assertTrue(d.isShareRequested(), "a thief that found nothing asks the owner to share");
        assertEquals(1, d.share());
        assertFalse(d.isShareRequested());
        assertEquals(1, d.steal(), "thieves take the oldest");
        assertNull(d.steal());
        assertEquals(2, d.pop());
        assertNull(d.pop());
    }

    @Test
    void thievesAreFifoAndOwnerReclaimsTheNewestShared() {
        SplitDeque<Integer> d = new SplitDeque<>();
        for (int i = 0; i < 8; i++) {
            d.push(i);
        }
        assertEquals(4, d.share());      // older half: 0..3
        assertEquals(2, d.share());      // older half of the rest: 4..5
        assertEquals(0, d.steal());
        assertEquals(7, d.pop());
        assertEquals(6, d.pop());
        assertEquals(5, d.pop(), "private empty: reclaims the top of the shared region");
        assertEquals(1, d.steal());
        assertEquals(4, d.pop());
        assertEquals(3, d.pop());
        assertEquals(2, d.pop());
        assertNull(d.pop());
        assertNull(d.steal());
    }

    @Test
    void popIfTakesOnlyTheExpectedTop() {
        SplitDeque<String> d = new SplitDeque<>();
        String a = "a", b = "b";
        d.push(a);
        d.push(b);
        assertFalse(d.popIf(a));
        assertTrue(d.popIf(b));
        d.share();
        assertTrue(d.popIf(a), "works on the shared region too");
        assertFalse(d.popIf(a));
    }

    @Test
    void growsAcrossWrapAroundWithSharedElements() {
        SplitDeque<Integer> d = new SplitDeque<>(2);
        int next = 0, expectSteal = 0;
        List<Integer> popped = new ArrayList<>();
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 7; i++) {
                d.push(next++);
            }
            d.share();
            Integer s = d.steal();
            assertNotNull(s);
            assertTrue(s >= expectSteal);
            expectSteal = s;
            popped.add(d.pop());
        }
        int total = 0;
        for (Integer x; (x = d.pop()) != null; ) {
            total++;
        }
        assertEquals(50 * 7 - 50 - 50, total);
    }

    @Test
    void badCapacityIsRejectedWithTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SplitDeque<>(3));
        assertTrue(e.getMessage().contains("3"), e.getMessage());
        assertThrows(NullPointerException.class, () -> new SplitDeque<>().push(null));
    }

    /** Owner pushes, shares and pops while thieves steal: every element comes out exactly once. */
    @Test
    void concurrentOwnerAndThievesTakeEachElementExactlyOnce() throws Exception {
        final int n = 400_000;
        final int thieves = 3;
        SplitDeque<Integer> d = new SplitDeque<>(2);
        AtomicIntegerArray seen = new AtomicIntegerArray(n);
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(thieves);
        List<Thread> ts = new ArrayList<>();
        for (int k = 0; k < thieves; k++) {
            Thread t = new Thread(() -> {
                try {
                    while (!done.get() || d.hasShared()) {
                        Integer x = d.steal();
                        if (x != null) {
                            seen.incrementAndGet(x);
                        }
                    }
                } finally {
                    finished.countDown();
                }
            }, "thief-" + k);
            t.start();
            ts.add(t);
        }
        java.util.Random rnd = new java.util.Random(42);
        for (int i = 0; i < n; i++) {
            d.push(i);
            if (d.isShareRequested() || rnd.nextInt(4) == 0) {
                d.share();
            }
            if (rnd.nextInt(3) == 0) {
                Integer x = d.pop();
                if (x != null) {
                    seen.incrementAndGet(x);
                }
            }
        }
        for (Integer x; (x = d.pop()) != null; ) {
            seen.incrementAndGet(x);
        }
        done.set(true);
        assertTrue(finished.await(60, TimeUnit.SECONDS), "thieves did not stop: steal() hung");
        for (int i = 0; i < n; i++) {
            assertEquals(1, seen.get(i), "element " + i + " taken " + seen.get(i) + " times");
        }
    }
}
