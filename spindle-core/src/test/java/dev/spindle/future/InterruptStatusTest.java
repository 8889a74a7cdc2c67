package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Interrupts and waiting. A touch and a join are not interruptible: they wait for the value, and
 * the waiting thread's interrupt status is what it was, so the code after them still sees it
 * (until 2026-11-26 a worker's wait cleared it for good). {@link LazyFuture#get()} on a thread
 * that is not a worker is interruptible while it waits, as {@code Future.get} promises; a worker
 * helps while it waits, as in {@code ForkJoinTask.get}, and keeps the status instead. Each wait
 * here is made to park: a helper thread releases the awaited body only once the waiter is seen
 * parked (bounded).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InterruptStatusTest {

    /** Bounded: until {@code t} parks, i.e. waits for something. */
    private static void awaitParked(Thread t) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError(t.getName() + " never parked; state " + t.getState());
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch l, String what) {
        try {
            assertTrue(l.await(60, TimeUnit.SECONDS), what);
        } catch (InterruptedException e) {
            throw new AssertionError("interrupted while waiting: " + what, e);
        }
    }

    /** Starts a daemon thread that waits (bounded) until {@code waiter} parks, then runs {@code action}. */
    private static Thread onceParked(String name, Thread waiter, Runnable action) {
        Thread t = new Thread(() -> {
            awaitParked(waiter);
            action.run();
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Has this thread's {@code f.get()} interrupted once it parks, and checks that the
     * InterruptedException consumed the status; returns the interrupter, for {@link #assertEnds}.
     */
    private static Thread assertGetInterrupted(java.util.concurrent.Future<?> f, String statusCleared) {
        Thread me = Thread.currentThread();
        Thread interrupter = onceParked("interrupter", me, me::interrupt);
        assertThrows(InterruptedException.class, f::get);
        assertFalse(Thread.interrupted(), statusCleared);
        return interrupter;
    }

    private static void assertEnds(Thread t) throws InterruptedException {
        t.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(t.isAlive(), "the " + t.getName() + " hung");
    }

    @Test
    void aWorkerTouchingAFutureRunningElsewhereWaitsAndKeepsItsInterruptStatus() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "needs the future exposed to the other worker at once");
        try (SpindlePool pool = new SpindlePool(2)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch touching = new CountDownLatch(1);
            AtomicReference<Thread> waiter = new AtomicReference<>();
            int result = LazyFutureTest.onWorker(pool, () -> {
                waiter.set(Thread.currentThread());
                LazyFuture<Integer> y = Spindle.future(() -> {
                    started.countDown();
                    await(touching, "the owner never touched");
                    awaitParked(waiter.get());          // until the toucher parks for it
                    return 5;
                });
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                await(started, "the other worker never took the future");
                Thread.currentThread().interrupt();
                touching.countDown();                   // from here the owner parks only in the touch
                int v = y.touch();
                return v + (Thread.interrupted() ? 100 : 0);
            });
            assertEquals(105, result, "5 from the future, 100 for the interrupt status kept");
        }
    }

    @Test
    void aJoinThatParksKeepsTheInterruptStatus() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Task<Integer> child = new Task<>() {
                @Override
                protected Integer compute() {
                    started.countDown();
                    await(release, "the child was never released");
                    return 7;
                }
            };
            pool.submit(child);
            await(started, "no worker started the child");
            AtomicReference<Thread> joiner = new AtomicReference<>();
            Task<Integer> parent = new Task<>() {
                @Override
                protected Integer compute() {
                    joiner.set(Thread.currentThread());
                    Thread.currentThread().interrupt();
                    int v = child.join();
                    return v + (Thread.interrupted() ? 100 : 0);
                }
            };
            pool.submit(parent);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (joiner.get() == null) {
                assertTrue(System.nanoTime() < end, "no worker started the joining task");
                Thread.onSpinWait();
            }
            awaitParked(joiner.get());
            release.countDown();
            assertEquals(107, parent.get(60, TimeUnit.SECONDS), "7 from the child, 100 for the interrupt status kept");
        }
    }

    /** A future whose body the owner runs inline, on a worker, until {@code release}. */
    private static LazyFuture<String> runningOnAWorker(QuietPool quiet, CountDownLatch release, Task<String>[] owner)
            throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<LazyFuture<String>> shared = new AtomicReference<>();
        owner[0] = new Task<>() {
            @Override
            protected String compute() {
                LazyFuture<String> f = Spindle.future(() -> {
                    started.countDown();
                    await(release, "the body was never released");
                    return "done";
                });
                shared.set(f);
                return f.touch();
            }
        };
        quiet.pool.submit(owner[0]);
        await(started, "the owner never started the body");
        return shared.get();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aTouchFromAThreadThatIsNotAWorkerWaitsAndKeepsItsInterruptStatus() throws Exception {
        try (QuietPool quiet = new QuietPool()) {
            CountDownLatch release = new CountDownLatch(1);
            Task<String>[] owner = new Task[1];
            LazyFuture<String> f = runningOnAWorker(quiet, release, owner);
            Thread me = Thread.currentThread();
            Thread releaser = onceParked("releaser", me, release::countDown);
            me.interrupt();
            assertEquals("done", f.touch());
            assertTrue(Thread.interrupted(), "the touch lost the interrupt status");
            assertEquals("done", owner[0].get(60, TimeUnit.SECONDS));
            assertEnds(releaser);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void getFromAThreadThatIsNotAWorkerIsInterruptedWhileItWaits() throws Exception {
        try (QuietPool quiet = new QuietPool()) {
            CountDownLatch release = new CountDownLatch(1);
            Task<String>[] owner = new Task[1];
            LazyFuture<String> f = runningOnAWorker(quiet, release, owner);
            Thread me = Thread.currentThread();
            Thread interrupter = onceParked("interrupter", me, me::interrupt);
            assertThrows(InterruptedException.class, f::get);
            assertFalse(Thread.currentThread().isInterrupted(), "InterruptedException clears the status");
            assertFalse(f.isDone(), "the body was released before the interrupt");
            release.countDown();
            assertEquals("done", f.get());
            assertEquals("done", owner[0].get(60, TimeUnit.SECONDS));
            assertEnds(interrupter);
        }
    }

    @Test
    void getOfAPromotedFutureRunningOnAWorkerIsInterruptedWhileItWaits() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            LazyFuture<String> f = LazyFutureTest.promotedOn(pool, () -> {
                started.countDown();
                await(release, "the body was never released");
                return "done";
            });
            await(started, "no worker ran the promoted future");
            Thread interrupter = assertGetInterrupted(f, "InterruptedException clears the status (the promoted task's get kept it)");
            release.countDown();
            assertEquals("done", f.touch());
            assertEnds(interrupter);
        }
    }

    @Test
    void getOfATaskOnAThreadThatIsNotAWorkerIsInterruptedAndClearsTheStatus() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Task<String> task = pool.submit(new Task<>() {
                @Override
                protected String compute() {
                    started.countDown();
                    await(release, "the task was never released");
                    return "done";
                }
            });
            await(started, "no worker ran the task");
            Thread interrupter = assertGetInterrupted(task, "InterruptedException clears the status, as Future.get promises");
            release.countDown();
            assertEquals("done", task.get(60, TimeUnit.SECONDS));
            assertEnds(interrupter);
        }
    }

    @Test
    void aParallelLoopKeepsTheCallersInterruptStatus() {
        long[] sum = new long[1];
        Thread.currentThread().interrupt();
        try {
            dev.spindle.loop.Loops.parallelForRange(0, 100_000, (from, to) -> {
                long s = 0;
                for (int i = from; i < to; i++) {
                    s += i;
                }
                synchronized (sum) {
                    sum[0] += s;
                }
            });
        } finally {
            assertTrue(Thread.interrupted(), "the loop lost the caller's interrupt status");
        }
        assertEquals(100_000L * 99_999L / 2, sum[0]);
    }
}
