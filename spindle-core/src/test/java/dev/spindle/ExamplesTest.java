package dev.spindle;

import dev.spindle.forkjoin.ForkJoin;
import dev.spindle.forkjoin.Pair;
import dev.spindle.forkjoin.RecursiveAction;
import dev.spindle.forkjoin.RecursiveTask;
import dev.spindle.future.LazyFuture;
import dev.spindle.future.LongFuture;
import dev.spindle.runtime.PoolStatistics;
import dev.spindle.runtime.SpindlePool;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples of README.md and of the public types' Javadoc, compiled and run, so the
 * documentation cannot rot. Keep them in sync when editing either side.
 */
class ExamplesTest {

    // README "Quick start" and Spindle's Javadoc
    static long fib(int n) {
        if (n <= 13) return seqFib(n);
        return Spindle.join(() -> fib(n - 1), () -> fib(n - 2), Long::sum);
    }

    static long seqFib(int n) { return n < 2 ? n : seqFib(n - 1) + seqFib(n - 2); }

    // README "Lazy futures" and LazyFuture's / Spindle's Javadoc
    static long fibF(int n) {
        if (n < 2) return n;
        LazyFuture<Long> a = Spindle.future(() -> fibF(n - 1));   // no threshold anywhere
        long b = fibF(n - 2);
        return a.touch() + b;
    }

    // README "Lazy futures" and LongFuture's Javadoc: a primitive future
    record Node(long value, Node left, Node right) {
    }

    static long sum(Node t) {
        if (t == null) return 0;
        LongFuture right = Spindle.futureLong(() -> sum(t.right));
        return sum(t.left) + right.touchLong() + t.value;
    }

    // README "Lazy futures", Spindle.future(Function, Object)'s Javadoc: the call form
    static long fibCall(int n) {
        if (n < 2) return n;
        LongFuture a = Spindle.futureLong(ExamplesTest::fibCall, n - 1);   // fib applied to n - 1
        return fibCall(n - 2) + a.touchLong();
    }

    // LongFuture.of(ToLongFunction, Object)'s Javadoc
    static long sumCall(Node n) {
        if (n == null) return 0;
        LongFuture left = LongFuture.of(ExamplesTest::sumCall, n.left);
        long right = sumCall(n.right);
        return left.touchLong() + right + n.value;
    }

    @Test
    void readmeCallForm() {
        Node t = tree(1, 10_001);
        try (SpindlePool pool = new SpindlePool(2)) {
            long[] r = pool.invoke(new RecursiveTask<long[]>() {
                @Override
                protected long[] compute() {
                    return new long[]{fibCall(27), sumCall(t)};
                }
            });
            assertArrayEquals(new long[]{196418L, 10_000L * 10_001L / 2}, r);
        }
        assertEquals(196418L, fibCall(27));                      // from a thread that is not a worker
    }

    static Node tree(long lo, long hi) {
        if (lo >= hi) return null;
        long mid = (lo + hi) >>> 1;
        return new Node(mid, tree(lo, mid), tree(mid + 1, hi));
    }

    @Test
    void readmePrimitiveFuture() {
        Node t = tree(1, 10_001);
        try (SpindlePool pool = new SpindlePool(2)) {
            long r = pool.invoke(new RecursiveTask<Long>() {
                @Override
                protected Long compute() {
                    return sum(t);
                }
            });
            assertEquals(10_000L * 10_001L / 2, r);
        }
        assertEquals(10_000L * 10_001L / 2, sum(t));            // from a thread that is not a worker
    }

    @Test
    void readmeLazyFutures() {
        try (SpindlePool pool = new SpindlePool(2)) {
            long r = pool.invoke(new RecursiveTask<Long>() {
                @Override
                protected Long compute() {
                    return fibF(27);
                }
            });
            assertEquals(196418L, r);
            dev.spindle.runtime.FutureCounts f = pool.statistics().futures();
            assertTrue(f.created() > 0 && f.created() == f.inline() + f.promoted(), f.toString());
        }
        assertEquals(196418L, fibF(27));                         // from a thread that is not a worker
        // Scope's Javadoc, with sizes instead of files
        List<String> words = List.of("a", "bb", "ccc");
        long total = Spindle.scopeValue(s -> {
            List<LazyFuture<Integer>> parts = new java.util.ArrayList<>();
            for (String w : words) parts.add(s.futureCall(w::length));
            long sum = 0;
            for (LazyFuture<Integer> f : parts) sum += f.touch();
            return sum;
        });
        assertEquals(6L, total);
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        Spindle.scope(s -> {
            for (String w : words) s.future(done::incrementAndGet);
        });
        assertEquals(3, done.get(), "every future of the scope finished when scope() returned");
    }

    @Test
    void readmeQuickStart() {
        assertEquals(102334155L, fib(40));
        assertTrue(Spindle.defaultPool().statistics().summary().startsWith("workers="));
    }

    // RecursiveTask's Javadoc
    static final class Fib extends RecursiveTask<Long> {
        final int n;
        Fib(int n) { this.n = n; }
        protected Long compute() {
            if (n <= 13) return seqFib(n);
            Fib f1 = new Fib(n - 1);
            f1.fork();
            long b = new Fib(n - 2).compute();
            return f1.join() + b;
        }
    }

    // RecursiveAction's Javadoc
    static final class Fill extends RecursiveAction {
        final int[] a; final int lo, hi;
        Fill(int[] a, int lo, int hi) { this.a = a; this.lo = lo; this.hi = hi; }
        protected void action() {
            if (hi - lo <= 4096) { for (int i = lo; i < hi; i++) a[i] = i; return; }
            int mid = (lo + hi) >>> 1;
            invokeAll(new Fill(a, lo, mid), new Fill(a, mid, hi));
        }
    }

    @Test
    void readmePortingAndPoolJavadoc() throws Exception {
        try (SpindlePool pool = new SpindlePool(4)) {
            long r = pool.invoke(new Fib(30));          // a RecursiveTask
            Future<String> f = pool.submit(() -> "hi"); // an ExecutorService
            assertEquals(832040L, r);
            assertEquals("hi", f.get());
            int[] a = new int[100_000];
            pool.invoke(new Fill(a, 0, a.length));
            int[] expected = new int[a.length];
            java.util.Arrays.setAll(expected, i -> i);
            assertArrayEquals(expected, a);
        }                                              // close() waits for submitted work
    }

    @Test
    void poolStatisticsJavadoc() {
        try (SpindlePool pool = new SpindlePool(2)) {
            PoolStatistics before = pool.statistics();
            pool.invoke(new Fib(30));
            String line = pool.statistics().minus(before).summary();
            assertTrue(line.contains("tasks="), line);
        }
    }

    @Test
    void dequeTaskWorkerAndStatisticsJavadoc() throws Exception {
        dev.spindle.deque.SplitDeque<String> d = new dev.spindle.deque.SplitDeque<>();
        d.push("a"); d.push("b");
        d.share();
        String[] stolen = new String[1];
        Thread thief = new Thread(() -> stolen[0] = d.steal());
        thief.start();
        thief.join();
        assertEquals("a", stolen[0]);
        assertEquals("b", d.pop());

        java.nio.file.Path path = java.nio.file.Files.createTempFile("spindle", ".txt");
        java.nio.file.Files.writeString(path, "text");
        try (SpindlePool pool = new SpindlePool(2)) {
            dev.spindle.runtime.Task<String> t = new dev.spindle.runtime.Task<>() {
                protected String compute() throws java.io.IOException { return java.nio.file.Files.readString(path); }
            };
            pool.submit(t);
            assertEquals("text", t.join());
            Future<String> who = pool.submit(() -> {
                dev.spindle.runtime.Worker w = (dev.spindle.runtime.Worker) Thread.currentThread();
                return w.index() + " of " + w.pool().parallelism();
            });
            assertTrue(who.get().endsWith(" of 2"));
            for (dev.spindle.runtime.WorkerStatistics w : pool.statistics().workers()) {
                assertTrue(w.tasksRun() >= 0 && w.steals() >= 0);
            }
            dev.spindle.runtime.Task<Integer> failing = new dev.spindle.runtime.Task<>() {
                protected Integer compute() { throw new IllegalStateException("boom"); }
            };
            pool.submit(failing);
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, failing::join);
            assertTrue(e.getSuppressed()[0] instanceof dev.spindle.runtime.JoinSite);
        } finally {
            java.nio.file.Files.deleteIfExists(path);
        }
    }

    @Test
    void forkJoinJavadoc() {
        Pair<Integer, String> p = ForkJoin.join(() -> 6 * 7, () -> "answer");
        assertEquals(42, p.first());
        assertEquals("answer", p.second());
        List<Callable<Integer>> bodies = List.of(() -> 1, () -> 2, () -> 3);
        assertEquals(List.of(1, 2, 3), Spindle.invokeAll(bodies));
    }

    // README "runtime hints", SpindlePool.setParallelism / setWorkerPinning, CpuAffinity's Javadoc
    @Test
    void runtimeHintsReadme() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {        // the README uses the default pool
            pool.setParallelism(dev.spindle.topology.Topology.current().cores());   // one worker per physical core from now on
            if (dev.spindle.topology.CpuAffinity.isSupported()) {
                pool.setWorkerPinning(true);                    // each worker on its own CPU
            }
            assertEquals(dev.spindle.topology.Topology.current().cores(), pool.parallelism());
            assertEquals(55L, (long) pool.invoke(new Fib(10)));
        }
        if (dev.spindle.topology.CpuAffinity.isSupported()) {
            Thread t = new Thread(() -> {
                java.util.BitSet before = dev.spindle.topology.CpuAffinity.ofCurrentThread();    // e.g. {0, 1}
                java.util.BitSet one = new java.util.BitSet();
                one.set(before.nextSetBit(0));
                dev.spindle.topology.CpuAffinity.setCurrentThread(one);
                dev.spindle.topology.CpuAffinity.setCurrentThread(before);
            });
            t.start();
            t.join(30_000);
        }
    }
}
