package dev.spindle.future;

import dev.spindle.runtime.FutureCounts;
import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static dev.spindle.future.LazyFutureTest.onWorker;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What a woven serial method calls ({@link SerialFutures}): the prologue's question, and the
 * handles of futures it made in place — each must behave as a future the runtime ran at its
 * creation, whoever touches it, and count as one.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SerialFuturesTest {

    @Test
    void aWorkerOfAPoolOfOneAsksForTheSerialMethodAThreadWithAnEmptyStackDoesNot() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            boolean onWorker = onWorker(pool, SerialFutures::mayKeepLatent);
            // a pool of one keeps nothing latent: nobody could be given it
            assertEquals(SpawnMode.current() == SpawnMode.ALWAYS, onWorker, "spawn=" + SpawnMode.current());
        }
        FutureTask<Boolean> external = new FutureTask<>(SerialFutures::mayKeepLatent);
        Thread t = new Thread(external, "not-a-worker");
        t.start();
        assertTrue(external.get(60, TimeUnit.SECONDS), "a thread that keeps three latent futures holds none yet");
        t.join();
    }

    @Test
    void theWorkersMirrorFollowsItsStackThroughAPushAndAPop() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "the stack keeps futures latent only under spawn=auto");
        // The other worker is held in a task of its own, so that nobody asks for work meanwhile
        // (a request answers the prologue's question too).
        try (QuietPool quiet = new QuietPool()) {
            SpindlePool pool = quiet.pool;
            List<Boolean> seen = onWorker(pool, () -> {
                Worker w = (Worker) Thread.currentThread();
                // A request a worker left before it parked at the pool's start is answered
                // by the first push; after it, nobody asks.
                assertEquals(0, Spindle.future(() -> 0).touch());
                List<Boolean> out = new ArrayList<>();
                out.add(SerialFutures.mayKeepLatent());          // empty: a pool of two keeps one
                LazyFuture<Integer> f = Spindle.future(() -> 7);  // kept latent
                out.add(SerialFutures.mayKeepLatent());
                out.add(w.latentRoom() == !w.latentStack().runsNow());
                assertEquals(7, f.touch());                      // popped and run here
                out.add(SerialFutures.mayKeepLatent());
                return out;
            });
            assertEquals(List.of(true, false, true, true), seen,
                    "prologue with an empty stack, with one latent future, mirror equals stack, after the touch");
        }
    }

    @Test
    void theSerialPrimitiveTouchesOfALatentFutureRunItThroughTheHandlesOwnTouch() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "the stack keeps futures latent only under spawn=auto");
        try (QuietPool quiet = new QuietPool()) {
            List<Object> seen = onWorker(quiet.pool, () -> {
                assertEquals(0, Spindle.future(() -> 0).touch()); // answers a request left at the pool's start
                List<Object> out = new ArrayList<>();
                LongFuture l = Spindle.futureLong(() -> 41L + 1); // kept latent: a pool of two keeps one
                out.add(l.isDone());
                out.add(SerialFutures.touchLong(l));             // popped and run here
                out.add(SerialFutures.touchLong(l));             // and now held by the handle
                IntFuture i = Spindle.futureInt(() -> 6 * 7);
                out.add(i.isDone());
                out.add(SerialFutures.touchInt(i));
                DoubleFuture d = Spindle.futureDouble(() -> 0.5);
                out.add(d.isDone());
                out.add(SerialFutures.touchDouble(d));
                return out;
            });
            assertEquals(List.of(false, 42L, 42L, false, 42, false, 0.5), seen,
                    "latent long, its touch, again; latent int, its touch; latent double, its touch");
        }
    }

    @Test
    void aHintThatOutlivedItsRequestIsClearedOnTheWayToTheMethodAsWrittenAndARealRequestIsKept() throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "the stack keeps futures latent only under spawn=auto");
        try (QuietPool quiet = new QuietPool()) {
            List<Object> seen = onWorker(quiet.pool, () -> {
                Worker w = (Worker) Thread.currentThread();
                LatentStack s = w.latentStack();
                LazyFuture<Integer> f = Spindle.future(() -> 7);  // kept latent: no room left
                List<Object> out = new ArrayList<>();
                // A thief set the hint after its request, and the request was served in between:
                // the hint is set and nothing stands behind it.
                w.hintRequest();
                out.add(w.requestHinted());
                out.add(SerialFutures.mayKeepLatent());          // the hint alone: to the method as written
                out.add(SerialFutures.asWritten());              // on the way there: nothing stands behind it
                out.add(w.requestHinted());                      // so the hint is gone
                out.add(SerialFutures.mayKeepLatent());          // and the next frame runs the serial method
                s.requestOne();                                  // a request that stands
                out.add(SerialFutures.mayKeepLatent());          // the method as written, to serve it
                out.add(SerialFutures.asWritten());
                out.add(w.requestHinted() && s.isRequested());   // both kept for the push that serves it
                out.add(f.touch());
                return out;
            });
            assertEquals(Arrays.asList(true, true, null, false, false, true, null, true, 7), seen,
                    "stale hint set, prologue, on the way, hint after it, next prologue, prologue with a request, "
                            + "on the way, hint and request kept, value");
        }
    }

    @Test
    void handlesOfFuturesMadeInPlaceHoldTheirValueForEveryToucherAndCountAsInline() throws Exception {
        try (SpindlePool pool = new SpindlePool(1)) {
            FutureCounts before = pool.statistics().futures();
            Object[] fs = onWorker(pool, () -> {
                LazyFuture<String> o = SerialFutures.ran("made");
                LazyFuture<Object> n = SerialFutures.ran(null);
                LongFuture l = SerialFutures.ranLong(1L << 40);
                IntFuture i = SerialFutures.ranInt(-7);
                DoubleFuture d = SerialFutures.ranDouble(0.1 + 0.2);
                assertTrue(o.isDone() && n.isDone() && l.isDone() && i.isDone() && d.isDone());
                assertFalse(o.cancel(true), "a future that ran cannot be cancelled");
                assertFalse(o.isCancelled());
                assertEquals("made", o.touch());
                assertEquals("made", SerialFutures.touch(o));
                assertNull(n.touch());
                assertEquals(1L << 40, l.touchLong());
                assertEquals(-7, i.touchInt());
                assertEquals(0.1 + 0.2, d.touchDouble());
                assertEquals(Long.valueOf(1L << 40), l.touch());
                assertEquals(1L << 40, SerialFutures.touchLong(l));
                assertEquals(-7, SerialFutures.touchInt(i));
                assertEquals(0.1 + 0.2, SerialFutures.touchDouble(d));
                assertTrue(o.toString().endsWith("[completed]"), o.toString());
                return new Object[] {o, l, i, d};
            });
            FutureCounts c = pool.statistics().futures().minus(before);
            assertEquals(5, c.created(), c.toString());
            assertEquals(5, c.inline(), c.toString());
            FutureTask<Object[]> other = new FutureTask<>(() -> new Object[] {
                ((LazyFuture<?>) fs[0]).touch(), ((LongFuture) fs[1]).touchLong(), ((IntFuture) fs[2]).get(),
                ((DoubleFuture) fs[3]).get(10, TimeUnit.SECONDS)});
            Thread t = new Thread(other, "toucher");
            t.start();
            assertArrayEquals(new Object[] {"made", 1L << 40, -7, 0.1 + 0.2}, other.get(60, TimeUnit.SECONDS));
            t.join();
        }
    }

    @Test
    void aFailureMadeInPlaceIsRaisedAtEveryTouchAndReportedIfNobodyTouchesIt() throws Exception {
        assumeTrue(SpawnMode.current() != SpawnMode.ALWAYS, "under spawn=always no frame runs a serial method");
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        SpindlePool pool = new SpindlePool(1);
        pool.setUntouchedFailureHandler((f, ex) -> reported.add(ex));
        IllegalStateException touched = new IllegalStateException("touched");
        IllegalArgumentException lost = new IllegalArgumentException("nobody looks at me");
        ArithmeticException primitive = new ArithmeticException("long");
        onWorker(pool, () -> {
            LazyFuture<Integer> f = SerialFutures.failed(touched);
            assertTrue(f.isDone());
            assertSame(touched, assertThrows(IllegalStateException.class, f::touch));
            assertSame(touched, assertThrows(IllegalStateException.class, () -> SerialFutures.touch(f)));
            assertTrue(touched.getSuppressed().length >= 2 && touched.getSuppressed()[0] instanceof TouchSite,
                    "each touch adds its site");
            ExecutionException ee = assertThrows(ExecutionException.class, f::get);
            assertSame(touched, ee.getCause());
            LongFuture l = SerialFutures.failedLong(primitive);
            assertSame(primitive, assertThrows(ArithmeticException.class, l::touchLong));
            assertSame(primitive, assertThrows(ArithmeticException.class, () -> SerialFutures.touchLong(l)));
            IntFuture i = SerialFutures.failedInt(new ArithmeticException("int"));
            assertThrows(ArithmeticException.class, i::touchInt);
            assertEquals("int", assertThrows(ArithmeticException.class, () -> SerialFutures.touchInt(i)).getMessage());
            DoubleFuture d = SerialFutures.failedDouble(new ArithmeticException("double"));
            assertThrows(ArithmeticException.class, d::touchDouble);
            assertEquals("double", assertThrows(ArithmeticException.class, () -> SerialFutures.touchDouble(d)).getMessage());
            SerialFutures.failed(lost);                       // fire and forget
            return null;
        });
        pool.close();
        assertEquals(List.of(lost), reported, "only the untouched failure is reported");
    }

    @Test
    void theSwitchTakesTrueOrFalseAndNamesAnyOtherValue() {
        assertTrue(SerialFutures.serialMethods(null));
        assertTrue(SerialFutures.serialMethods("true"));
        assertFalse(SerialFutures.serialMethods("false"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SerialFutures.serialMethods("yes"));
        assertTrue(e.getMessage().contains("spindle.future.serialMethods") && e.getMessage().contains("\"yes\""), e.getMessage());
    }
}
