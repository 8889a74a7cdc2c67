package dev.spindle.runtime;

import dev.spindle.loop.Loops;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** {@link SpindlePool#setParallelism}: retiring, restarting and growing workers at run time. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParallelismChangeTest {

    @Test
    void outOfRangeParallelismNamesTheValue() {
        try (SpindlePool pool = new SpindlePool(2)) {
            for (int bad : new int[]{0, -1, 32768, Integer.MIN_VALUE}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.setParallelism(bad));
                assertTrue(e.getMessage().contains(Integer.toString(bad)), e.getMessage());
            }
            assertEquals(2, pool.parallelism());
        }
    }

    @Test
    void changingAShutDownPoolIsRefused() {
        SpindlePool pool = new SpindlePool(2);
        pool.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.setParallelism(3));
        assertTrue(e.getMessage().contains("setParallelism(3)"), e.getMessage());
    }

    @Test
    void loweringRetiresTheHighestWorkersAndTheRestStillComputes() throws Exception {
        try (SpindlePool pool = new SpindlePool(4)) {
            assertEquals(Fib.seq(22), pool.invoke(new Fib(22, 4)));
            List<Worker> before = workers(pool);
            assertEquals(4, pool.setParallelism(1));
            assertEquals(1, pool.parallelism());
            for (int i = 1; i < 4; i++) {
                Worker w = before.get(i);
                w.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(w.isAlive(), w.getName() + " did not exit within 30 s after setParallelism(1): " + pool);
                assertTrue(w.retired, w.getName());
            }
            long[] ranBefore = tasksRun(pool);
            assertEquals(Fib.seq(24), pool.invoke(new Fib(24, 4)));
            long[] ranAfter = tasksRun(pool);
            assertTrue(ranAfter[0] > ranBefore[0], "worker 0 ran nothing");
            for (int i = 1; i < 4; i++) {
                assertEquals(ranBefore[i], ranAfter[i], "retired worker " + i + " ran tasks");
            }
            assertSame(before.get(0), pool.workerAt(0), "worker 0 must not be replaced");
        }
    }

    @Test
    void raisingRestartsRetiredSlotsAndGrowsPastTheInitialSize() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            pool.setParallelism(1);
            Worker old = pool.workerAt(1);
            old.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(old.isAlive(), "worker 1 did not retire: " + pool);
            assertEquals(1, pool.setParallelism(4));
            assertNotSame(old, pool.workerAt(1), "a retired slot gets a fresh thread");
            // Four tasks that can only finish together prove four workers run at once.
            assertEquals(4, rendezvous(pool, 4));
            assertEquals(4, pool.statistics().workers().size());
        }
    }

    /** Workers caught between searching and parking when their slot goes away: none may sleep on. */
    @Test
    void retiringRacesWithParkingNeverStrandsAWorker() throws Exception {
        try (SpindlePool pool = new SpindlePool(3)) {
            for (int round = 0; round < 300; round++) {
                pool.setParallelism(3);
                pool.submit(() -> { }).get(30, TimeUnit.SECONDS);   // some worker wakes, searches, parks
                List<Worker> before = workers(pool);
                pool.setParallelism(1);
                for (int i = 1; i < 3; i++) {
                    Worker w = before.get(i);
                    w.join(TimeUnit.SECONDS.toMillis(30));
                    assertFalse(w.isAlive(), "round " + round + ": " + w.getName()
                            + " (parkState " + w.parkState + ") did not retire within 30 s: " + pool);
                }
            }
        }
    }

    @Test
    void teamsPlanForTheNewParallelism() throws Exception {
        try (SpindlePool pool = new SpindlePool(3)) {
            pool.setParallelism(1);
            AtomicInteger size = new AtomicInteger();
            pool.submit(() -> Loops.parallelRegion(team -> size.set(team.size()))).get(30, TimeUnit.SECONDS);
            assertEquals(1, size.get());
        }
    }

    /** Flipping the parallelism while fork/join and submissions run: nothing lost, nothing twice. */
    @Test
    void changesDuringWorkLoseNothingAndThePoolStillTerminates() throws Exception {
        SpindlePool pool = new SpindlePool(2);
        AtomicInteger ran = new AtomicInteger();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread flipper = new Thread(() -> {
            int[] sizes = {1, 3, 2, 4, 1, 2};
            for (int k = 0; k < 300 && failures.isEmpty(); k++) {
                try {
                    pool.setParallelism(sizes[k % sizes.length]);
                } catch (IllegalStateException shutDown) {
                    return;
                }
                Thread.onSpinWait();
            }
        }, "parallelism-flipper");
        flipper.start();
        for (int round = 0; round < 200; round++) {
            assertEquals(Fib.seq(18), pool.invoke(new Fib(18, 3)), "round " + round);
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                fs.add(pool.submit(ran::incrementAndGet));
            }
            for (Future<?> f : fs) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        flipper.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(flipper.isAlive(), "setParallelism hung: " + pool);
        assertEquals(200 * 8, ran.get());
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "pool did not terminate after shutdown: " + pool);
    }

    @Test
    void aPoolShrunkToOneTerminatesOnShutdown() throws Exception {
        SpindlePool pool = new SpindlePool(4);
        pool.invoke(new Fib(20, 3));
        pool.setParallelism(1);
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "pool did not terminate: " + pool);
    }

    private static int rendezvous(SpindlePool pool, int parties) throws Exception {
        CyclicBarrier all = new CyclicBarrier(parties);
        List<Future<String>> fs = new ArrayList<>();
        for (int i = 0; i < parties; i++) {
            fs.add(pool.submit(() -> {
                try {
                    all.await(30, TimeUnit.SECONDS);
                } catch (TimeoutException | BrokenBarrierException e) {
                    throw new AssertionError("only " + all.getNumberWaiting() + " of " + parties
                            + " tasks ran at once: the pool did not start enough workers", e);
                }
                return Thread.currentThread().getName();
            }));
        }
        java.util.Set<String> threads = new java.util.HashSet<>();
        for (Future<String> f : fs) {
            threads.add(f.get(60, TimeUnit.SECONDS));
        }
        return threads.size();
    }

    private static List<Worker> workers(SpindlePool pool) {
        List<Worker> out = new ArrayList<>();
        for (int i = 0; i < pool.workerCount(); i++) {
            out.add(pool.workerAt(i));
        }
        return out;
    }

    private static long[] tasksRun(SpindlePool pool) {
        List<WorkerStatistics> ws = pool.statistics().workers();
        long[] out = new long[ws.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ws.get(i).tasksRun();
        }
        return out;
    }
}
