package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.FutureCounts;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Every semantic point of a lazy future, on workers and on threads that are not workers. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LazyFutureTest {

    /** Runs {@code body} on a worker of {@code pool} and returns its result (bounded wait). */
    static <T> T onWorker(SpindlePool pool, Supplier<T> body) throws Exception {
        Task<T> t = new Task<>() {
            @Override
            protected T compute() {
                return body.get();
            }
        };
        pool.submit(t);
        try {
            return t.get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("task on worker hung: " + t, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : new RuntimeException(e.getCause());
        }
    }

    /** A future created on a worker and promoted at once, so other threads can see it. */
    static <T> LazyFuture<T> promotedOn(SpindlePool pool, Supplier<T> body) throws Exception {
        return onWorker(pool, () -> {
            LazyFuture<T> f = Spindle.future(body);
            ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
            return f;
        });
    }

    @Test
    void untouchedLatentFutureRunsOnTheTouchingThread() throws Exception {
        try (QuietPool quiet = new QuietPool()) {     // nobody can steal: the future stays latent
            SpindlePool pool = quiet.pool;
            onWorker(pool, () -> {
                AtomicReference<Thread> ran = new AtomicReference<>();
                LazyFuture<String> f = Spindle.future(() -> {
                    ran.set(Thread.currentThread());
                    return "x";
                });
                assertFalse(f.isDone());
                assertEquals("x", f.touch());
                assertSame(Thread.currentThread(), ran.get());
                assertTrue(f.isDone());
                return null;
            });
        }
    }

    @Test
    void promotedButUnstartedFutureRunsOnTheTouchingThread() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.NEVER, "nothing is promoted under spawn=never");
        try (QuietPool quiet = new QuietPool()) {
            SpindlePool pool = quiet.pool;
            CountDownLatch hold = new CountDownLatch(1);
            AtomicReference<Thread> ran = new AtomicReference<>();
            LazyFuture<Integer> f = promotedThenBusy(pool, hold, () -> {
                ran.set(Thread.currentThread());
                return 7;
            });
            assertEquals(7, f.touch());
            assertSame(Thread.currentThread(), ran.get());
            hold.countDown();
        }
    }

    /**
     * On a worker of a {@link QuietPool}: creates a future, promotes it, hands it out, then keeps the
     * worker busy until {@code hold} opens, so the promoted task stays unstarted.
     */
    static <T> LazyFuture<T> promotedThenBusy(SpindlePool pool, CountDownLatch hold, Supplier<T> body)
            throws InterruptedException {
        AtomicReference<LazyFuture<T>> out = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(1);
        pool.submit(new Task<Void>() {
            @Override
            protected Void compute() throws Exception {
                LazyFuture<T> f = Spindle.future(body);
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                out.set(f);
                ready.countDown();
                assertTrue(hold.await(60, TimeUnit.SECONDS), "holder task was never released");
                return null;
            }
        });
        assertTrue(ready.await(60, TimeUnit.SECONDS), "worker never promoted the future");
        return out.get();
    }

    @Test
    void completedFutureGivesValueAndHappensBefore() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            int[] plain = new int[1];
            LazyFuture<Integer> f = promotedOn(pool, () -> {
                plain[0] = 42;            // plain write in the body
                return 1;
            });
            assertEquals(1, f.touch());
            assertEquals(42, plain[0]);   // visible after touch
            assertEquals(1, f.touch());   // again, same value
            assertEquals(1, f.get());
        }
    }

    @Test
    void touchingARunningFutureWaitsForIt() throws Exception {
        // The owner runs the body (inline at its touch, or as the claimed promoted task); another
        // thread touches meanwhile and must wait for the same value.
        try (QuietPool quiet = new QuietPool()) {
            SpindlePool pool = quiet.pool;
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            AtomicReference<LazyFuture<String>> shared = new AtomicReference<>();
            CountDownLatch published = new CountDownLatch(1);
            Task<String> owner = new Task<>() {
                @Override
                protected String compute() {
                    LazyFuture<String> f = Spindle.future(() -> {
                        runs.incrementAndGet();
                        started.countDown();
                        try {
                            assertTrue(release.await(60, TimeUnit.SECONDS), "body never released");
                        } catch (InterruptedException e) {
                            throw new RuntimeException(e);
                        }
                        return "done";
                    });
                    shared.set(f);
                    published.countDown();
                    return f.touch();
                }
            };
            pool.submit(owner);
            assertTrue(published.await(60, TimeUnit.SECONDS));
            assertTrue(started.await(60, TimeUnit.SECONDS), "the owner never started the body");
            LazyFuture<String> f = shared.get();
            assertFalse(f.isDone());
            assertThrows(TimeoutException.class, () -> f.get(20, TimeUnit.MILLISECONDS));
            Thread releaser = new Thread(release::countDown);
            releaser.start();
            assertEquals("done", f.touch());
            assertEquals("done", owner.get(60, TimeUnit.SECONDS));
            assertEquals(1, runs.get());
            releaser.join();
        }
    }

    @Test
    void aWaitingToucherNeverRunsASiblingThatTouchesAFutureSuspendedBelowIt() throws Exception {
        // A creates Y (taken by the other worker), X (touches Y) and Z (touches X), then touches X:
        // X runs inline and waits for Y. Z, latent right below, must not be run on top of X's
        // frame meanwhile: Z would touch X, which can only finish after Z returns. (Helping with
        // any runnable work, as a fork/join join may, did exactly that.)
        // AUTO only: under never Y runs inline; under always Y is pushed like a fork, private
        // until a thief asks, and A blocks on a latch, where it serves no requests.
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "needs Y exposed to the other worker at once");
        try (SpindlePool pool = new SpindlePool(2)) {
            CountDownLatch yStarted = new CountDownLatch(1);
            AtomicReference<Thread> waiter = new AtomicReference<>();
            int result = onWorker(pool, () -> {
                waiter.set(Thread.currentThread());
                LazyFuture<Integer> y = Spindle.future(() -> {
                    yStarted.countDown();
                    awaitWaiting(waiter.get());        // until A's worker waits for Y
                    return 5;
                });
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                try {
                    assertTrue(yStarted.await(60, TimeUnit.SECONDS), "the other worker never took Y");
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                LazyFuture<Integer> x = Spindle.future(() -> y.touch() + 1);
                LazyFuture<Integer> z = Spindle.future(() -> x.touch() + 10);
                int xv = x.touch();
                return xv + z.touch();
            });
            assertEquals(6 + 16, result);
        }
    }

    /** Bounded: until {@code t} blocks (parked), i.e. waits for something. */
    private static void awaitWaiting(Thread t) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("worker " + t.getName() + " never waited; state " + t.getState());
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void uncheckedFailureIsThrownAsItselfWithTouchSiteEveryTime() {
        IllegalStateException boom = new IllegalStateException("boom");
        LazyFuture<Integer> f = Spindle.future(() -> {
            throw boom;
        });
        IllegalStateException got = assertThrows(IllegalStateException.class, f::touch);
        assertSame(boom, got);
        assertInstanceOf(TouchSite.class, got.getSuppressed()[0]);
        assertSame(boom, assertThrows(IllegalStateException.class, f::touch));
        assertSame(boom, assertThrows(ExecutionException.class, f::get).getCause());
    }

    @Test
    void checkedFailureIsWrappedEveryTime() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            IOException io = new IOException("disk");
            LazyFuture<Integer> f = onWorker(pool, () -> {
                LazyFuture<Integer> g = Spindle.futureCall(() -> {
                    throw io;
                });
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                return g;
            });
            assertSame(io, assertThrows(CompletionException.class, f::touch).getCause());
            assertSame(io, assertThrows(CompletionException.class, f::touch).getCause());
        }
    }

    /**
     * A callable is run through a {@link CallableBody} (so that every body is a Supplier): its
     * checked exception still reaches the touch wrapped, and its unchecked one as itself, whether
     * the future ran at its creation (a pool of one worker keeps nothing latent) or in a scope.
     */
    @Test
    void aCallableRunAtItsCreationDeliversItsFailuresAsACallableDoes() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            IOException io = new IOException("disk");
            IllegalStateException boom = new IllegalStateException("boom");
            List<LazyFuture<Integer>> fs = onWorker(pool, () -> {
                List<LazyFuture<Integer>> made = new ArrayList<>();
                made.add(Spindle.futureCall(() -> {
                    throw io;
                }));
                made.add(Spindle.futureCall(() -> {
                    throw boom;
                }));
                made.add(Spindle.futureCall(() -> 7));
                return made;
            });
            assertSame(io, assertThrows(CompletionException.class, fs.get(0)::touch).getCause());
            assertSame(boom, assertThrows(IllegalStateException.class, fs.get(1)::touch));
            assertEquals(7, fs.get(2).touch());
            CompletionException inScope = assertThrows(CompletionException.class, () -> onWorker(pool, () -> {
                Spindle.scope(sc -> sc.futureCall(() -> {
                    throw io;
                }));
                return null;
            }));
            assertSame(io, rootCause(inScope));
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    @Test
    void manyTouchersFromManyThreadsRunTheBodyOnce() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            for (int round = 0; round < 200; round++) {
                AtomicInteger runs = new AtomicInteger();
                LazyFuture<Integer> f = promotedOn(pool, runs::incrementAndGet);
                List<Thread> ts = new ArrayList<>();
                List<Integer> seen = new CopyOnWriteArrayList<>();
                for (int i = 0; i < 4; i++) {
                    Thread t = new Thread(() -> seen.add(f.touch()));
                    ts.add(t);
                    t.start();
                }
                seen.add(onWorker(pool, f::touch));
                for (Thread t : ts) {
                    t.join(60_000);
                    assertFalse(t.isAlive(), "toucher hung in round " + round);
                }
                assertEquals(1, runs.get(), "body ran more than once in round " + round);
                assertEquals(List.of(1, 1, 1, 1, 1), seen);
            }
        }
    }

    @Test
    void latentFutureOfAnotherThreadIsExposedWhenTouchedThere() throws Exception {
        // The creator keeps working in Spindle (futures, touches); a second thread touches one of
        // its latent futures and must get it without the creator touching it.
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<LazyFuture<Integer>> shared = new AtomicReference<>();
        CountDownLatch published = new CountDownLatch(1);
        AtomicReference<Integer> got = new AtomicReference<>();
        Thread toucher = new Thread(() -> {
            try {
                assertTrue(published.await(60, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new RuntimeException(e);
            }
            got.set(shared.get().touch());
        });
        toucher.start();
        LazyFuture<Integer> f = Spindle.future(() -> 10 + runs.incrementAndGet());
        shared.set(f);
        published.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (toucher.isAlive()) {
            Spindle.future(() -> 0).touch();      // the creator stays in Spindle
            toucher.join(0, 1000);
            assertTrue(System.nanoTime() < deadline, "cross-thread touch of a latent future hung");
        }
        assertEquals(11, got.get());
        assertEquals(11, f.touch());
        assertEquals(1, runs.get());
    }

    @Test
    void touchingAFutureFromItsOwnBodyIsAnError() throws Exception {
        try (QuietPool quiet = new QuietPool()) {
            SpindlePool one = quiet.pool;
            onWorker(one, () -> {
                AtomicReference<LazyFuture<Integer>> self = new AtomicReference<>();
                LazyFuture<Integer> f = Spindle.future(() -> self.get().touch());
                self.set(f);
                assertThrows(IllegalStateException.class, f::touch);
                // run out of order (a newer future is on top): the running mark is on the stack
                AtomicReference<LazyFuture<Integer>> self3 = new AtomicReference<>();
                AtomicReference<Boolean> cancelledItself = new AtomicReference<>();
                LazyFuture<Integer> g = Spindle.future(() -> {
                    cancelledItself.set(self3.get().cancel(false));
                    return self3.get().touch();
                });
                self3.set(g);
                LazyFuture<Integer> newer = Spindle.future(() -> 7);
                IllegalStateException e = assertThrows(IllegalStateException.class, g::touch);
                assertTrue(e.getMessage().contains("its own body"), e.getMessage());
                assertEquals(Boolean.FALSE, cancelledItself.get(), "a running future cannot be cancelled");
                assertThrows(IllegalStateException.class, g::touch, "every later touch raises again");
                assertEquals(7, newer.touch());
                return null;
            });
        }
        // and when promoted and run by a worker
        assumeTrue(SpawnMode.current() != SpawnMode.NEVER, "nothing is promoted under spawn=never");
        try (SpindlePool pool = new SpindlePool(2)) {
            AtomicReference<LazyFuture<Integer>> self2 = new AtomicReference<>();
            CountDownLatch set = new CountDownLatch(1);
            LazyFuture<Integer> g = promotedOn(pool, () -> {
                try {
                    assertTrue(set.await(60, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                return self2.get().touch();
            });
            self2.set(g);
            set.countDown();
            assertThrows(IllegalStateException.class, g::touch);
        }
    }

    @Test
    void cancelBeforeStartPreventsTheBody() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        try (QuietPool quiet = new QuietPool()) {        // latent: nobody can steal
            SpindlePool one = quiet.pool;
            onWorker(one, () -> {
                LazyFuture<Integer> f = Spindle.future(runs::incrementAndGet);
                assertTrue(f.cancel(false));
                assertTrue(f.isCancelled());
                assertTrue(f.isDone());
                assertThrows(CancellationException.class, f::touch);
                assertThrows(CancellationException.class, f::get);
                assertFalse(f.cancel(false));
                return null;
            });
        }
        // done: cannot cancel
        LazyFuture<Integer> h = Spindle.future(runs::incrementAndGet);
        h.touch();
        assertFalse(h.cancel(false));
        assertEquals(1, runs.get());
        // promoted, not started
        assumeTrue(SpawnMode.current() != SpawnMode.NEVER, "nothing is promoted under spawn=never");
        try (QuietPool quiet = new QuietPool()) {
            SpindlePool pool = quiet.pool;
            CountDownLatch hold = new CountDownLatch(1);
            LazyFuture<Integer> g = promotedThenBusy(pool, hold, runs::incrementAndGet);
            assertTrue(g.cancel(false));
            hold.countDown();
            assertThrows(CancellationException.class, g::touch);
        }
    }

    @Test
    void untouchedFailureIsReportedWhenThePoolCloses() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        IllegalArgumentException lost = new IllegalArgumentException("nobody looks at me");
        SpindlePool pool = new SpindlePool(2);
        pool.setUntouchedFailureHandler((f, ex) -> reported.add(ex));
        onWorker(pool, () -> {
            Spindle.future(() -> {
                throw lost;
            });                                  // fire and forget: exposed when the task ends
            Spindle.future(() -> 1);             // a successful one is not reported
            return null;
        });
        pool.close();
        assertEquals(List.of(lost), reported);
    }

    @Test
    void touchedFailureIsNotReported() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        SpindlePool pool = new SpindlePool(2);
        pool.setUntouchedFailureHandler((f, ex) -> reported.add(ex));
        LazyFuture<Integer> f = promotedOn(pool, () -> {
            throw new IllegalStateException("seen");
        });
        assertThrows(IllegalStateException.class, f::touch);
        pool.close();
        assertEquals(List.of(), reported);
    }

    @Test
    void scopeWaitsForEveryFutureAndRaisesUntouchedFailures() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            AtomicInteger done = new AtomicInteger();
            int n = onWorker(pool, () -> Spindle.scopeValue(s -> {
                for (int i = 0; i < 100; i++) {
                    s.future(() -> {
                        long x = 0;
                        for (int k = 0; k < 10_000; k++) {
                            x += k;
                        }
                        done.incrementAndGet();
                        return x;
                    });
                }
                return 100;
            }));
            assertEquals(n, done.get(), "scope returned before its futures finished");

            IllegalStateException a = new IllegalStateException("a");
            IllegalStateException b = new IllegalStateException("b");
            IllegalStateException got = assertThrows(IllegalStateException.class, () -> Spindle.scope(s -> {
                s.future(() -> {
                    throw a;
                });
                s.future(() -> {
                    throw b;
                });
            }));
            assertTrue(got == a || got == b);
            assertEquals(1, got.getSuppressed().length);

            // the body's own exception wins; untouched failures are suppressed into it
            RuntimeException body = new RuntimeException("body");
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> Spindle.scope(s -> {
                s.future(() -> {
                    throw a;
                });
                throw body;
            }));
            assertSame(body, thrown);
            assertTrue(List.of(thrown.getSuppressed()).contains(a));

            // a touched failure is not raised again by the scope
            assertEquals("ok", Spindle.scopeValue(s -> {
                LazyFuture<Object> f = s.future(() -> {
                    throw a;
                });
                assertThrows(IllegalStateException.class, f::touch);
                return "ok";
            }));
        }
    }

    @Test
    void forkingIntoAClosedScopeIsAnError() {
        AtomicReference<Scope> escaped = new AtomicReference<>();
        Spindle.scope(s -> {
            escaped.set(s);
        });
        assertThrows(IllegalStateException.class, () -> escaped.get().future(() -> 1));
    }

    @Test
    void nullBodyIsRejectedByName() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> Spindle.future(null));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> Spindle.futureCall(null));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> Spindle.scope(s -> {
            s.future(null);
        }));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
        LazyFuture<Integer> f = Spindle.future(() -> 1);
        e = assertThrows(NullPointerException.class, () -> f.get(1, null));
        assertEquals("unit", e.getMessage());
        assertEquals(1, f.touch());
    }

    @Test
    void badSpawnModeNamesTheValue() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> SpawnMode.parse("sometimes"));
        assertTrue(e.getMessage().contains("sometimes") && e.getMessage().contains(SpawnMode.PROPERTY), e.getMessage());
        assertEquals(SpawnMode.ALWAYS, SpawnMode.parse(" Always "));
        assertEquals(SpawnMode.AUTO, SpawnMode.parse(null));
    }

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        LazyFuture<Long> a = Spindle.future(() -> fib(n - 1));
        long b = fib(n - 2);
        return a.touch() + b;
    }

    @Test
    void statisticsCountCreatedInlinePromotedStolen() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            FutureCounts before = pool.statistics().futures();
            assertEquals(832040L, onWorker(pool, () -> fib(30)));
            FutureCounts c = pool.statistics().futures().minus(before);
            assertEquals(1346268, c.created(), c.toString());        // one per call with n >= 2
            assertEquals(c.created(), c.inline() + c.promoted(), c.toString());
            if (SpawnMode.current() == SpawnMode.NEVER) {
                assertEquals(0, c.promoted(), c.toString());
            } else {
                assertTrue(c.promoted() > 0 && c.stolen() > 0 && c.stolen() <= c.promoted(), c.toString());
            }
        }
    }

    @Test
    void futuresOfAThreadThatIsNotAWorkerParallelize() {
        if (SpawnMode.current() == SpawnMode.NEVER) {
            return;
        }
        // The main thread creates futures and never touches them: workers must take some.
        List<LazyFuture<Boolean>> fs = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        boolean onWorker = false;
        while (!onWorker) {
            LazyFuture<Boolean> f = Spindle.future(() -> Thread.currentThread() instanceof Worker);
            fs.add(f);
            for (LazyFuture<Boolean> g : fs) {
                if (g.isDone() && Boolean.TRUE.equals(g.touch())) {
                    onWorker = true;
                }
            }
            if (fs.size() > 256) {
                fs.subList(0, 128).forEach(LazyFuture::touch);
                fs.subList(0, 128).clear();
            }
            assertTrue(System.nanoTime() < deadline, "no future of a non-worker thread ever ran on a worker");
        }
        fs.forEach(LazyFuture::touch);
    }
}
