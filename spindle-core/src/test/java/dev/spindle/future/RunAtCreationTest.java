package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.FutureCounts;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.spindle.future.LazyFutureTest.onWorker;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A future created while its thread already keeps enough latent futures runs at its creation
 * ({@code LatentStack.runsNow}); every semantic point of a future holds for it too.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RunAtCreationTest {

    /** On a worker: fills the latent stack up to what it keeps, with futures that count their runs. */
    private static List<LazyFuture<Integer>> fillKept(AtomicInteger runs) {
        int keep = ((Worker) Thread.currentThread()).latentKeep();
        List<LazyFuture<Integer>> kept = new ArrayList<>();
        for (int i = 0; i < keep; i++) {
            int v = i;
            kept.add(Spindle.future(() -> {
                runs.incrementAndGet();
                return v;
            }));
        }
        return kept;
    }

    @Test
    void futuresBeyondTheKeptOnesRunAtTheirCreation() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "spawn=always makes every future a task");
        try (SpindlePool pool = new SpindlePool(1)) {
            FutureCounts before = pool.statistics().futures();
            onWorker(pool, () -> {
                AtomicInteger keptRuns = new AtomicInteger();
                List<LazyFuture<Integer>> kept = fillKept(keptRuns);
                AtomicInteger runs = new AtomicInteger();
                LazyFuture<String> now = Spindle.future(() -> {
                    runs.incrementAndGet();
                    return "now";
                });
                assertEquals(1, runs.get(), "the future beyond the kept ones ran at its creation");
                assertTrue(now.isDone());
                assertEquals("LazyFuture#" + kept.size() + "[completed]", now.toString());
                assertFalse(now.cancel(false), "a future that ran cannot be cancelled");
                assertEquals("now", now.touch());
                assertEquals("now", now.touch());
                assertEquals(1, runs.get(), "touching it again does not run it again");
                assertEquals(0, keptRuns.get(), "the kept futures stay latent");
                for (LazyFuture<Integer> f : kept) {
                    assertFalse(f.isDone());
                }
                for (int i = kept.size() - 1; i >= 0; i--) {
                    assertEquals(i, kept.get(i).touch());
                }
                assertEquals(kept.size(), keptRuns.get());
                return null;
            });
            FutureCounts c = pool.statistics().futures().minus(before);
            assertEquals(c.created(), c.inline(), c.toString());
        }
    }

    @Test
    void aFailureAtCreationIsRaisedAtEveryTouchAndNotReported() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "spawn=always makes every future a task");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        SpindlePool pool = new SpindlePool(1);
        pool.setUntouchedFailureHandler((f, ex) -> reported.add(ex));
        IllegalStateException boom = new IllegalStateException("boom");
        onWorker(pool, () -> {
            List<LazyFuture<Integer>> kept = fillKept(new AtomicInteger());
            LazyFuture<Integer> f = Spindle.future(() -> {
                throw boom;
            });                                            // the creation does not throw
            assertTrue(f.isDone());
            assertSame(boom, assertThrows(IllegalStateException.class, f::touch));
            assertSame(boom, assertThrows(IllegalStateException.class, f::touch));
            assertTrue(boom.getSuppressed().length >= 2 && boom.getSuppressed()[0] instanceof TouchSite,
                    "each touch adds its site");
            ExecutionException ee = assertThrows(ExecutionException.class, f::get);
            assertSame(boom, ee.getCause());
            kept.forEach(LazyFuture::touch);
            return null;
        });
        pool.close();
        assertEquals(List.of(), reported, "a touched failure is not reported");
    }

    @Test
    void anUntouchedFailureAtCreationIsReportedWhenThePoolCloses() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "spawn=always makes every future a task");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        List<LazyFuture<?>> handles = new CopyOnWriteArrayList<>();
        SpindlePool pool = new SpindlePool(1);
        pool.setUntouchedFailureHandler((f, ex) -> {
            handles.add(f);
            reported.add(ex);
        });
        IllegalArgumentException lost = new IllegalArgumentException("nobody looks at me");
        onWorker(pool, () -> {
            List<LazyFuture<Integer>> kept = fillKept(new AtomicInteger());
            Spindle.future(() -> {
                throw lost;
            });                                            // fire and forget, run at its creation
            Spindle.future(() -> 1);                       // a successful one is not reported
            kept.forEach(LazyFuture::touch);
            return null;
        });
        pool.close();
        assertEquals(List.of(lost), reported);
        assertTrue(handles.get(0).isDone());
        assertSame(lost, assertThrows(IllegalArgumentException.class, handles.get(0)::touch));
    }

    @Test
    void aScopeRaisesAFailureAtCreationOnce() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "spawn=always makes every future a task");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        SpindlePool pool = new SpindlePool(1);
        pool.setUntouchedFailureHandler((f, ex) -> reported.add(ex));
        UnsupportedOperationException lost = new UnsupportedOperationException("raised by the scope");
        Throwable raised = onWorker(pool, () -> {
            List<LazyFuture<Integer>> kept = fillKept(new AtomicInteger());
            try {
                Spindle.scope(s -> {
                    s.future(() -> {
                        throw lost;
                    });
                });
            } catch (UnsupportedOperationException e) {
                return e;
            } finally {
                kept.forEach(LazyFuture::touch);
            }
            return null;
        });
        pool.close();
        assertSame(lost, raised);
        assertEquals(List.of(), reported, "the scope observed it; the pool does not report it again");
    }

    @Test
    void primitiveFuturesRunAtCreationGiveTheirValueEverywhere() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "spawn=always makes every future a task");
        try (SpindlePool pool = new SpindlePool(1)) {
            Object[] fs = onWorker(pool, () -> {
                List<LazyFuture<Integer>> kept = fillKept(new AtomicInteger());
                LongFuture l = Spindle.futureLong(() -> 1L << 40);
                IntFuture i = Spindle.futureInt(() -> -7);
                DoubleFuture d = Spindle.futureDouble(() -> 0.1 + 0.2);
                assertTrue(l.isDone() && i.isDone() && d.isDone());
                assertEquals(1L << 40, l.touchLong());
                assertEquals(-7, i.touchInt());
                assertEquals(0.1 + 0.2, d.touchDouble());
                assertEquals(Long.valueOf(1L << 40), l.touch());   // boxed, through the generic touch
                assertEquals(Integer.valueOf(-7), i.touch());
                assertEquals(Double.valueOf(0.1 + 0.2), d.touch());
                kept.forEach(LazyFuture::touch);
                return new Object[] {l, i, d};
            });
            // Another thread: the shared path boxes the value kept in the handle.
            FutureTask<Object[]> other = new FutureTask<>(() -> new Object[] {
                ((LongFuture) fs[0]).touchLong(), ((IntFuture) fs[1]).touchInt(), ((DoubleFuture) fs[2]).touchDouble(),
                ((LongFuture) fs[0]).get(), ((IntFuture) fs[1]).get(10, TimeUnit.SECONDS)});
            Thread t = new Thread(other, "toucher");
            t.start();
            Object[] seen = other.get(60, TimeUnit.SECONDS);
            assertArrayEquals(new Object[] {1L << 40, -7, 0.1 + 0.2, 1L << 40, -7}, seen);
            t.join();
        }
    }

    @Test
    void aRequestMakesTheNextFutureLatentAndPromotesTheOldest() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "only auto promotes on request");
        try (SpindlePool pool = new SpindlePool(1)) {
            FutureCounts before = pool.statistics().futures();
            onWorker(pool, () -> {
                AtomicInteger keptRuns = new AtomicInteger();
                List<LazyFuture<Integer>> kept = fillKept(keptRuns);
                LatentStack s = ((Worker) Thread.currentThread()).latentStack();
                s.requestOne();                              // as a hungry worker would
                AtomicInteger runs = new AtomicInteger();
                LazyFuture<Integer> next = Spindle.future(() -> {
                    runs.incrementAndGet();
                    return 99;
                });
                assertEquals(0, runs.get(), "a future created while someone asks for work is not run at once");
                assertEquals(kept.size(), s.size(), "the oldest went to the deque, the new one is latent");
                assertEquals(99, next.touch());
                for (int i = kept.size() - 1; i >= 0; i--) {
                    assertEquals(i, kept.get(i).touch());
                }
                return null;
            });
            FutureCounts c = pool.statistics().futures().minus(before);
            assertEquals(1, c.promoted(), c.toString());
        }
    }

    @Test
    void aWorkerKeepsLog2OfItsPoolsParallelismLatent() throws Exception {
        int[] parallelism = {1, 2, 3, 4, 8};
        int[] expected = {0, 1, 2, 2, 3};
        for (int i = 0; i < parallelism.length; i++) {
            try (SpindlePool pool = new SpindlePool(parallelism[i])) {
                int keep = onWorker(pool, () -> ((Worker) Thread.currentThread()).latentKeep());
                assertEquals(expected[i], keep, "latent futures kept by a worker of a pool of " + parallelism[i]);
            }
        }
    }

    @Test
    void aWorkerOfTwoKeepsItsFirstFutureLatentAndRunsTheNextAtTheirCreation() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "spawn=always makes every future a task");
        try (QuietPool quiet = new QuietPool()) {
            onWorker(quiet.pool, () -> {
                AtomicInteger runs = new AtomicInteger();
                LazyFuture<Integer> first = Spindle.future(() -> {
                    runs.incrementAndGet();
                    return 1;
                });
                assertEquals(0, runs.get(), "the first future of a worker of two ran at its creation");
                LazyFuture<Integer> second = Spindle.future(() -> {
                    runs.incrementAndGet();
                    return 2;
                });
                assertEquals(1, runs.get(), "a worker of two keeps one latent future; the second should have run at its creation");
                assertEquals(2, second.touch());
                assertEquals(1, first.touch());
                assertEquals(2, runs.get(), "each body runs once");
                return null;
            });
        }
    }
}
