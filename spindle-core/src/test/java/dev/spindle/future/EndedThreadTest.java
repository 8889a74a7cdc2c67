package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Futures of a thread that is not a worker and ends without touching them. Such a thread keeps a
 * few futures latent; nobody but their owner exposes latent futures, and until 2026-11-27 an
 * ended owner left them unrun: a touch from another thread waited for good (under spawn=never
 * always; under auto whenever no worker had asked for work before the thread ended), and the
 * thread's statistics dropped out of the pool's once its stack was collected.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EndedThreadTest {

    /** Runs {@code body} on a new platform thread and waits for it to end (bounded). */
    private static void onEndedThread(Runnable body) throws InterruptedException {
        Thread t = new Thread(body, "short-lived");
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(t.isAlive(), "the short-lived thread hung");
    }

    @Test
    void aFutureLeftLatentByAnEndedThreadRunsWhenAnotherThreadTouchesIt() throws Exception {
        AtomicReference<LazyFuture<Integer>> ref = new AtomicReference<>();
        AtomicInteger runs = new AtomicInteger();
        onEndedThread(() -> ref.set(Spindle.future(() -> {
            runs.incrementAndGet();
            return 42;
        })));
        assertEquals(42, ref.get().get(60, TimeUnit.SECONDS), "the touch waited for an owner that had ended");
        assertEquals(42, ref.get().touch());
        assertEquals(1, runs.get(), "the body ran " + runs.get() + " times");
    }

    @Test
    void aFutureLeftLatentByAnEndedThreadRunsEvenIfNobodyTouchesIt() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        onEndedThread(() -> Spindle.future(() -> {
            ran.countDown();
            return 1;
        }));
        // Nobody touches it. A worker of the default pool looks for ended threads' futures when it
        // is about to park (at most every 10 ms): give one something to run, then let it park.
        SpindlePool pool = SpindlePool.defaultPool();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!ran.await(20, TimeUnit.MILLISECONDS)) {
            assertTrue(System.nanoTime() < end, "the ended thread's untouched future never ran");
            pool.submit(() -> 0).get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void manyEndedThreadsFuturesTouchedFromManyThreadsEachRunOnce() throws Exception {
        // Short-lived threads each create futures (nested ones too), touch some and leave the rest
        // to others; touchers on several threads race each other, the adoption of the ended
        // threads' stacks and the pool's workers. Every body must run exactly once and give its value.
        int threads = 64;
        int perThread = 5;
        AtomicInteger[] runs = new AtomicInteger[threads * perThread];
        @SuppressWarnings("unchecked")
        LazyFuture<Integer>[] futures = new LazyFuture[threads * perThread];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = new AtomicInteger();
        }
        Thread[] creators = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int base = t * perThread;
            creators[t] = new Thread(() -> {
                for (int j = 0; j < perThread; j++) {
                    int id = base + j;
                    futures[id] = Spindle.future(() -> {
                        runs[id].incrementAndGet();
                        LazyFuture<Integer> inner = Spindle.future(() -> id * 2);
                        return inner.touch() / 2;
                    });
                }
                if (base % 3 == 0) {
                    assertEquals(base, futures[base].touch());   // some touched by their creator
                }
            }, "creator-" + t);
            creators[t].start();
        }
        for (Thread c : creators) {
            c.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(c.isAlive(), c.getName() + " hung");
        }
        Thread[] touchers = new Thread[4];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int k = 0; k < touchers.length; k++) {
            int offset = k;
            touchers[k] = new Thread(() -> {
                try {
                    for (int i = 0; i < futures.length; i++) {
                        int id = (i * 7 + offset * 13) % futures.length;
                        assertEquals(id, futures[id].get(60, TimeUnit.SECONDS), "future " + id);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "toucher-" + k);
            touchers[k].start();
        }
        for (Thread t : touchers) {
            t.join(TimeUnit.SECONDS.toMillis(90));
            assertFalse(t.isAlive(), t.getName() + " hung waiting for an ended thread's future");
        }
        if (failure.get() != null) {
            throw new AssertionError("a toucher failed", failure.get());
        }
        for (int i = 0; i < runs.length; i++) {
            assertEquals(1, runs[i].get(), "future " + i + " ran " + runs[i].get() + " times");
        }
    }

    @Test
    void theFuturesOfEndedThreadsStayInThePoolsStatistics() throws Exception {
        SpindlePool pool = SpindlePool.defaultPool();
        long before = pool.statistics().futures().created();
        int threads = 200;                              // more than the registry's first pruning size
        for (int i = 0; i < threads; i++) {
            int k = i;
            onEndedThread(() -> assertEquals(k, Spindle.future(() -> k).touch()));
        }
        long after = pool.statistics().futures().created();
        assertTrue(after - before >= threads, "created went from " + before + " to " + after + " over "
                + threads + " threads that each created a future");
    }
}
