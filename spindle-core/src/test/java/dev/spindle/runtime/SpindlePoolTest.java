package dev.spindle.runtime;

import dev.spindle.forkjoin.RecursiveTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpindlePoolTest {

    @Test
    void workerCountOutsideRangeNamesTheValue() {
        for (int bad : new int[]{0, -1, 32768, Integer.MIN_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SpindlePool(bad));
            assertTrue(e.getMessage().contains(Integer.toString(bad)), e.getMessage());
        }
    }

    @Test
    void fibIsCorrectAtSeveralWorkerCounts() {
        for (int w : new int[]{1, 2, 4}) {
            try (SpindlePool pool = new SpindlePool(w)) {
                assertEquals(Fib.seq(27), pool.invoke(new Fib(27, 5)), "workers=" + w);
                PoolStatistics s = pool.statistics();
                assertTrue(s.tasksRun() > 1000, s.summary());
            }
        }
    }

    /**
     * A fork made while another worker is idle (searching or parked) must reach it even if its
     * owner then runs a long leaf that never pushes or pops: the owner shares at the push only if
     * it sees someone hungry, so an idle worker must never be counted as neither searching nor
     * parked. A worker that stopped searching before it counted itself parked opened such a gap
     * (IdleProtocol.parkAfterSearch): 11 and 14 forks of 20,000 stayed private, none after.
     */
    @Test
    void aForkMadeWhileAWorkerIsIdleReachesItWithoutTheOwnersHelp() {
        try (SpindlePool pool = new SpindlePool(2)) {
            pool.invoke(new Task<Void>() {
                @Override
                protected Void compute() {
                    for (int trial = 0; trial < 5000; trial++) {
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        while (!pool.idle().anyoneHungry()) {
                            assertTrue(System.nanoTime() < deadline, "trial " + trial
                                    + ": the other worker never became idle within 30 s: " + pool);
                            Thread.onSpinWait();
                        }
                        // Fork at a different point of the idle worker's search each time (it
                        // searches ~100 µs before it parks), so that some forks land as it parks.
                        long forkAt = System.nanoTime() + (trial * 7919L) % 150_000L;
                        while (System.nanoTime() < forkAt) {
                            Thread.onSpinWait();
                        }
                        AtomicInteger started = new AtomicInteger();
                        Task<Void> child = new Task<>() {
                            @Override
                            protected Void compute() {
                                started.set(1);
                                return null;
                            }
                        };
                        child.fork();
                        while (started.get() == 0) {       // a leaf: no push, no pop
                            assertTrue(System.nanoTime() < deadline, "trial " + trial + ": a task forked while"
                                    + " a worker was idle stayed private for 30 s: " + pool);
                            Thread.onSpinWait();
                        }
                        child.join();
                    }
                    return null;
                }
            });
        }
    }

    @Test
    void uncheckedFailureReachesJoinerAsItselfWithJoinSite() {
        try (SpindlePool pool = new SpindlePool(2)) {
            IllegalStateException boom = new IllegalStateException("boom");
            Task<Integer> t = new RecursiveTask<>() {
                @Override
                protected Integer compute() {
                    throw boom;
                }
            };
            IllegalStateException got = assertThrows(IllegalStateException.class, () -> pool.invoke(t));
            assertSame(boom, got);
            assertTrue(got.getSuppressed().length >= 1 && got.getSuppressed()[0] instanceof JoinSite,
                    "join site must be attached as suppressed");
            // Every later join rethrows it too.
            assertSame(boom, assertThrows(IllegalStateException.class, t::join));
            ExecutionException ee = assertThrows(ExecutionException.class, t::get);
            assertSame(boom, ee.getCause());
        }
    }

    @Test
    void checkedFailureArrivesWrapped() {
        try (SpindlePool pool = new SpindlePool(2)) {
            Task<Integer> t = new Task<>() {
                @Override
                protected Integer compute() throws IOException {
                    throw new IOException("disk");
                }
            };
            CompletionException e = assertThrows(CompletionException.class, () -> pool.invoke(t));
            assertInstanceOf(IOException.class, e.getCause());
        }
    }

    @Test
    void workerSurvivesExceptionsAndIsReplacedAfterError() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            for (int i = 0; i < 100; i++) {
                Future<?> f = pool.submit(() -> {
                    throw new RuntimeException("task failure");
                });
                assertThrows(ExecutionException.class, f::get);
            }
            assertEquals(0, pool.statistics().workerDeaths());
            class Fatal extends Error {
                Fatal() {
                    super("fatal");
                }
            }
            Task<Integer> killer = new Task<>() {
                @Override
                protected Integer compute() {
                    throw new Fatal();
                }
            };
            assertThrows(Fatal.class, () -> pool.invoke(killer));
            // The pool keeps working at full strength after the replacement.
            assertEquals(Fib.seq(22), pool.invoke(new Fib(22, 4)));
            // The joiner hears of the Error when the task completes; the dying worker counts its
            // death a moment later, on its way out.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.statistics().workerDeaths() == 0) {
                assertTrue(System.nanoTime() < deadline, "the killed worker's death was not counted within 30 s: " + pool);
                Thread.onSpinWait();
            }
            assertEquals(1, pool.statistics().workerDeaths());
            assertEquals(2, pool.statistics().workers().size());
        }
    }

    @Test
    void errorInsideNestedJoinReachesTopJoinerAndNothingHangs() {
        try (SpindlePool pool = new SpindlePool(2)) {
            class Fatal extends Error {
            }
            class Tree extends RecursiveTask<Integer> {
                final int depth;

                Tree(int depth) {
                    this.depth = depth;
                }

                @Override
                protected Integer compute() {
                    if (depth == 0) {
                        throw new Fatal();
                    }
                    Tree a = new Tree(depth - 1);
                    a.fork();
                    int b = new Tree(depth - 1).compute();
                    return a.join() + b;
                }
            }
            assertThrows(Fatal.class, () -> pool.invoke(new Tree(6)));
            assertEquals(Fib.seq(20), pool.invoke(new Fib(20, 3)));
        }
    }

    @Test
    void submissionAfterShutdownIsRejected() {
        SpindlePool pool = new SpindlePool(2);
        pool.shutdown();
        assertThrows(RejectedExecutionException.class, () -> pool.submit(() -> 1));
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        pool.close();
        assertTrue(pool.isTerminated());
    }

    @Test
    void closeWaitsForSubmittedWorkAndItsForks() {
        SpindlePool pool = new SpindlePool(2);
        List<Task<Long>> tasks = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            tasks.add(pool.submit(new Fib(20, 3)));
        }
        pool.close();
        assertTrue(pool.isTerminated());
        for (Task<Long> t : tasks) {
            assertTrue(t.isDone());
            assertEquals(Fib.seq(20), t.join());
        }
    }

    @Test
    void shutdownNowCancelsQueuedTasks() throws Exception {
        SpindlePool pool = new SpindlePool(1);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> blocker = pool.submit(() -> {
            running.countDown();
            release.await();
            return null;
        });
        assertTrue(running.await(30, TimeUnit.SECONDS), "blocker task never started");
        Future<Integer> queued = pool.submit(() -> 42);
        List<Runnable> drained = pool.shutdownNow();
        assertEquals(1, drained.size());
        assertTrue(queued.isCancelled());
        assertThrows(CancellationException.class, queued::get);
        release.countDown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "pool did not terminate after shutdownNow");
        blocker.get();
    }

    @Test
    void idlePoolParksEveryWorker() throws Exception {
        try (SpindlePool pool = new SpindlePool(4)) {
            pool.invoke(new Fib(20, 3));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                boolean allParked = true;
                for (int i = 0; i < pool.parallelism(); i++) {
                    Worker w = pool.workerAt(i);
                    Thread.State st = w.getState();
                    if (w.parkState != IdleProtocol.PARKED_IDLE || st != Thread.State.WAITING) {
                        allParked = false;
                    }
                }
                if (allParked) {
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "workers still not parked after 30 s: " + pool);
                Thread.sleep(1);   // polling an observable state, not synchronizing
            }
            // Parked workers use no CPU: their CPU time does not advance.
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long[] before = new long[pool.parallelism()];
            for (int i = 0; i < before.length; i++) {
                before[i] = mx.getThreadCpuTime(pool.workerAt(i).threadId());
            }
            Thread.sleep(200);
            for (int i = 0; i < before.length; i++) {
                long after = mx.getThreadCpuTime(pool.workerAt(i).threadId());
                assertTrue(after - before[i] < TimeUnit.MILLISECONDS.toNanos(5),
                        "idle worker " + i + " used " + (after - before[i]) + " ns of CPU in 200 ms");
            }
        }
    }

    /** Many short bursts from several submitters: a lost wake-up would hang one of them. */
    @Test
    void wakeUpStressNeverHangs() throws Exception {
        try (SpindlePool pool = new SpindlePool(4)) {
            int submitters = 4, bursts = 5000;
            AtomicInteger ran = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int s = 0; s < submitters; s++) {
                Thread t = new Thread(() -> {
                    try {
                        for (int b = 0; b < bursts; b++) {
                            int k = 1 + (b % 3);
                            List<Future<?>> fs = new ArrayList<>(k);
                            for (int i = 0; i < k; i++) {
                                fs.add(pool.submit(ran::incrementAndGet));
                            }
                            for (Future<?> f : fs) {
                                f.get(30, TimeUnit.SECONDS);
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "submitter-" + s);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(90));
                assertFalse(t.isAlive(), t.getName() + " hung waiting for a burst: lost wake-up? " + pool);
            }
            assertTrue(failures.isEmpty(), () -> "burst failed (a 30 s wait timed out = lost wake-up): " + failures);
            int expected = 0;
            for (int b = 0; b < bursts; b++) {
                expected += 1 + (b % 3);
            }
            assertEquals(expected * submitters, ran.get());
        }
    }

    @Test
    void joinFromNonWorkerBlocksUntilDone() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            CountDownLatch go = new CountDownLatch(1);
            Task<Integer> t = pool.submit(new Task<Integer>() {
                @Override
                protected Integer compute() throws Exception {
                    go.await();
                    return 7;
                }
            });
            assertFalse(t.isDone());
            go.countDown();
            assertEquals(7, t.join());
        }
    }

    @Test
    void cancelledTaskNeverRuns() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            CountDownLatch release = new CountDownLatch(1);
            pool.submit(() -> {
                release.await();
                return null;
            });
            AtomicInteger ran = new AtomicInteger();
            Future<?> f = pool.submit(ran::incrementAndGet);
            assertTrue(f.cancel(false));
            release.countDown();
            assertThrows(CancellationException.class, f::get);
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertEquals(0, ran.get());
        }
    }

    @Test
    void defaultPoolPropertyIsValidated() {
        SystemPropertyScope.with(DefaultPool.WORKERS_PROPERTY, () -> {
            System.setProperty(DefaultPool.WORKERS_PROPERTY, "lots");
            IllegalStateException e = assertThrows(IllegalStateException.class, DefaultPool::configuredWorkers);
            assertTrue(e.getMessage().contains("lots"), e.getMessage());
            System.setProperty(DefaultPool.WORKERS_PROPERTY, "0");
            e = assertThrows(IllegalStateException.class, DefaultPool::configuredWorkers);
            assertTrue(e.getMessage().contains("0"), e.getMessage());
            System.setProperty(DefaultPool.WORKERS_PROPERTY, "3");
            assertEquals(3, DefaultPool.configuredWorkers());
        });
    }

    @Test
    void closeFromWorkerIsRefused() {
        try (SpindlePool pool = new SpindlePool(1)) {
            Future<?> f = pool.submit(() -> {
                pool.close();
                return null;
            });
            ExecutionException e = assertThrows(ExecutionException.class, f::get);
            assertInstanceOf(IllegalStateException.class, e.getCause());
        }
    }

    @Test
    void statisticsCountStealsAndOneLineSummary() {
        try (SpindlePool pool = new SpindlePool(2)) {
            PoolStatistics before = pool.statistics();
            for (int i = 0; i < 20; i++) {
                pool.invoke(new Fib(24, 6));
            }
            PoolStatistics d = pool.statistics().minus(before);
            assertTrue(d.tasksRun() > 0);
            assertFalse(d.summary().contains("\n"));
            assertTrue(d.summary().startsWith("workers=2"), d.summary());
        }
    }

    /**
     * A parent joins a child that the other worker runs and holds until the test releases it:
     * the parent's join waits (it spins, yields for {@code YIELD_NANOS}, then parks — the test
     * sees its worker's park count grow past the count the parent read just before joining, and
     * only then releases the child), and the statistics count that wait apart from the
     * time the workers spent in their tasks.
     */
    @Test
    @Timeout(60)
    void statisticsSplitTimeInTasksFromTimeWaitingInAJoin() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger joiner = new AtomicInteger(-1);
            AtomicLong parksBeforeJoin = new AtomicLong(-1);
            class Child extends Task<Integer> {
                @Override
                protected Integer compute() throws InterruptedException {
                    started.countDown();
                    return release.await(30, TimeUnit.SECONDS) ? 1 : -1;
                }
            }
            class Parent extends Task<Integer> {
                @Override
                protected Integer compute() throws InterruptedException {
                    Child c = new Child();
                    c.fork();
                    Worker me = (Worker) Thread.currentThread();
                    for (int i = 0; !started.await(1, TimeUnit.MILLISECONDS); i++) {
                        if (i == 30_000) {
                            return -2;
                        }
                        me.shareWork();      // a worker that went idle after the fork looks again
                    }
                    joiner.set(me.index());
                    parksBeforeJoin.set(pool.statistics().workers().get(me.index()).parks());
                    return c.join();
                }
            }
            PoolStatistics before = pool.statistics();
            Task<Integer> parent = pool.submit(new Parent());
            assertTrue(started.await(30, TimeUnit.SECONDS), "the forked child did not start on the other worker within 30 s");
            for (int i = 0; parksBeforeJoin.get() < 0
                    || pool.statistics().workers().get(joiner.get()).parks() == parksBeforeJoin.get(); i++) {
                assertTrue(i < 20_000, "the parent, joining a held child, did not park within 20 s");
                Thread.sleep(1);           // polling a counter, not standing in for synchronization
            }
            release.countDown();
            assertEquals(1, parent.get(30, TimeUnit.SECONDS), "parent's result (-1: child not released, -2: child never started)");
            PoolStatistics d = pool.statistics().minus(before);
            assertTrue(d.waitNanos() >= Worker.YIELD_NANOS, "a join that parked after yielding for "
                    + Worker.YIELD_NANOS + " ns counted " + d.waitNanos() + " ns of waiting: " + d.summary());
            // A task still running counts up to the snapshot: no need to wait for its worker.
            assertTrue(d.busyNanos() >= d.waitNanos(), "the wait happened inside a task, whose time was not all counted: " + d.summary());
            assertTrue(d.summary().contains(" waiting="), d.summary());
        }
    }

    @Test
    @Timeout(60)
    void statisticsCountTheTimeOfATaskStillRunning() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicLong startedAt = new AtomicLong();
            PoolStatistics before = pool.statistics();
            Callable<Boolean> body = () -> {
                startedAt.set(System.nanoTime());
                started.countDown();
                return release.await(30, TimeUnit.SECONDS);
            };
            Future<Boolean> held = pool.submit(body);
            assertTrue(started.await(30, TimeUnit.SECONDS), "the submitted task did not start within 30 s");
            long elapsed;
            do {
                elapsed = System.nanoTime() - startedAt.get();   // at least 1 ms of the task's time, by the clock
            } while (elapsed < 1_000_000L);
            long during = pool.statistics().minus(before).busyNanos();
            assertTrue(during >= elapsed, "a snapshot taken " + elapsed + " ns into a running task counted "
                    + during + " ns of busy time");
            long later = pool.statistics().minus(before).busyNanos();
            assertTrue(later >= during, "busy time went back from " + during + " to " + later + " ns while the task ran");
            release.countDown();
            assertTrue(held.get(30, TimeUnit.SECONDS), "the held task was not released");
        }
    }
}
