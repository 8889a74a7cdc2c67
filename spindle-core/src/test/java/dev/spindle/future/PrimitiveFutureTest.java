package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.spindle.future.LazyFutureTest.onWorker;
import static org.junit.jupiter.api.Assertions.*;

/** The primitive futures: the same semantics as {@link LazyFuture}, values returned unboxed. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrimitiveFutureTest {

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        LongFuture a = Spindle.futureLong(() -> fib(n - 1));
        long b = fib(n - 2);
        return a.touchLong() + b;
    }

    static int fibInt(int n) {
        if (n < 2) {
            return n;
        }
        IntFuture a = Spindle.futureInt(() -> fibInt(n - 1));
        int b = fibInt(n - 2);
        return a.touchInt() + b;
    }

    /** Sum of 1/k over [lo, hi), split in halves: the same additions in the same order however it runs. */
    static double harmonic(int lo, int hi) {
        if (hi - lo <= 4) {
            return leafHarmonic(lo, hi);
        }
        int mid = (lo + hi) >>> 1;
        DoubleFuture right = Spindle.futureDouble(() -> harmonic(mid, hi));
        double left = harmonic(lo, mid);
        return left + right.touchDouble();
    }

    static double leafHarmonic(int lo, int hi) {
        double s = 0;
        for (int k = lo; k < hi; k++) {
            s += 1.0 / k;
        }
        return s;
    }

    static long seqFib(int n) {
        return n < 2 ? n : seqFib(n - 1) + seqFib(n - 2);
    }

    static double seqHarmonic(int lo, int hi) {
        if (hi - lo <= 4) {
            return leafHarmonic(lo, hi);
        }
        int mid = (lo + hi) >>> 1;
        double left = seqHarmonic(lo, mid);
        return left + seqHarmonic(mid, hi);
    }

    @Test
    void recursionsEqualSequentialEvaluationAtOneAndTwoWorkers() throws Exception {
        for (int p = 1; p <= 2; p++) {
            try (SpindlePool pool = new SpindlePool(p)) {
                for (int r = 0; r < 5; r++) {
                    assertEquals(seqFib(24), onWorker(pool, () -> fib(24)), "fib at " + pool);
                    assertEquals((int) seqFib(22), onWorker(pool, () -> fibInt(22)), "fibInt at " + pool);
                    assertEquals(Double.doubleToLongBits(seqHarmonic(1, 100_000)),
                            Double.doubleToLongBits(onWorker(pool, () -> harmonic(1, 100_000))), "harmonic at " + pool);
                }
            }
        }
        assertEquals(seqFib(20), fib(20), "on a thread that is not a worker");
    }

    @Test
    void primitiveAndBoxedTouchesAgreeEveryTime() throws Exception {
        LongFuture l = Spindle.futureLong(() -> 1L << 40);
        IntFuture i = Spindle.futureInt(() -> 1 << 20);
        DoubleFuture d = Spindle.futureDouble(() -> Math.PI);
        assertEquals(1L << 40, l.touchLong());
        assertEquals(1L << 40, l.touchLong(), "a second touch returns the cached value");
        assertEquals(Long.valueOf(1L << 40), l.touch());
        assertEquals(Long.valueOf(1L << 40), l.get());
        assertEquals(1 << 20, i.touchInt());
        assertEquals(Integer.valueOf(1 << 20), i.get(1, TimeUnit.SECONDS));
        assertEquals(Math.PI, d.touchDouble());
        assertEquals(Double.valueOf(Math.PI), d.touch());
        // the boxed touch first, then the primitive one
        LongFuture m = Spindle.futureLong(() -> -5L);
        assertEquals(Long.valueOf(-5L), m.touch());
        assertEquals(-5L, m.touchLong());
        assertTrue(m.isDone());
    }

    @Test
    void uncheckedFailureIsThrownAsItselfWithTouchSiteEveryTime() {
        IllegalStateException boom = new IllegalStateException("boom");
        LongFuture f = Spindle.futureLong(() -> {
            throw boom;
        });
        IllegalStateException got = assertThrows(IllegalStateException.class, f::touchLong);
        assertSame(boom, got);
        assertInstanceOf(TouchSite.class, got.getSuppressed()[0]);
        assertSame(boom, assertThrows(IllegalStateException.class, f::touchLong), "every later touch raises again");
        assertSame(boom, assertThrows(IllegalStateException.class, f::touch));
        assertSame(boom, assertThrows(ExecutionException.class, f::get).getCause());
        DoubleFuture g = Spindle.futureDouble(() -> {
            throw boom;
        });
        assertSame(boom, assertThrows(IllegalStateException.class, g::touchDouble));
    }

    @Test
    void aPromotedFutureIsTouchedByItsOwnerAndByAnotherThread() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            // by its owner, after promotion: the touch settles it through its table
            long own = onWorker(pool, () -> {
                LongFuture f = Spindle.futureLong(() -> 40L + 2L);
                IntFuture g = Spindle.futureInt(() -> 7);
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                return f.touchLong() + g.touchInt();
            });
            assertEquals(49L, own);
            // by another thread
            LongFuture f = onWorker(pool, () -> {
                LongFuture h = Spindle.futureLong(() -> 123_456_789_000L);
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                return h;
            });
            assertEquals(123_456_789_000L, f.touchLong());
            assertEquals(123_456_789_000L, f.touchLong());
        }
    }

    @Test
    void touchingFromItsOwnBodyAndCancellingAreAsForAnyFuture() throws Exception {
        try (QuietPool quiet = new QuietPool()) {
            SpindlePool one = quiet.pool;
            onWorker(one, () -> {
                AtomicReference<LongFuture> self = new AtomicReference<>();
                LongFuture f = Spindle.futureLong(() -> self.get().touchLong());
                self.set(f);
                assertThrows(IllegalStateException.class, f::touchLong);
                AtomicInteger runs = new AtomicInteger();
                IntFuture c = Spindle.futureInt(runs::incrementAndGet);
                assertTrue(c.cancel(false));
                assertThrows(CancellationException.class, c::touchInt);
                assertEquals(0, runs.get(), "a cancelled body never runs");
                return null;
            });
        }
    }

    @Test
    void scopesForkPrimitiveFutures() {
        long total = Spindle.scopeValue(s -> {
            LongFuture a = s.futureLong(() -> 1L << 33);
            IntFuture b = s.futureInt(() -> 3);
            DoubleFuture c = s.futureDouble(() -> 0.5);
            return a.touchLong() + b.touchInt() + (long) (c.touchDouble() * 4);
        });
        assertEquals((1L << 33) + 5, total);
    }

    @Test
    void nullBodiesAreRejectedByName() {
        assertEquals("body", assertThrows(NullPointerException.class, () -> Spindle.futureLong(null)).getMessage());
        assertEquals("body", assertThrows(NullPointerException.class, () -> Spindle.futureInt(null)).getMessage());
        assertEquals("body", assertThrows(NullPointerException.class, () -> Spindle.futureDouble(null)).getMessage());
    }
}
