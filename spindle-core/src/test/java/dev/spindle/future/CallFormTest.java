package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

import static dev.spindle.future.LazyFutureTest.onWorker;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The call form ({@code Spindle.futureLong(fn, arg)} and its siblings): the same future as the
 * supplier form, whether it runs at its creation, stays latent until its touch, or is promoted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CallFormTest {

    private static long square(int x) {
        return (long) x * x;
    }

    /** One future of each call form, and what touching it must give. */
    private static List<Runnable> createEachForm(int x) {
        List<Runnable> touches = new ArrayList<>();
        String s = "s" + x;
        LazyFuture<String> obj = Spindle.future(String::toUpperCase, s);
        LongFuture longOfRef = Spindle.futureLong(String::length, s);
        LongFuture longOfInt = Spindle.futureLong(CallFormTest::square, x);
        IntFuture intOfRef = Spindle.futureInt(String::hashCode, s);
        IntFuture intOfInt = Spindle.futureInt(i -> i + 1, x);
        DoubleFuture doubleOfRef = Spindle.futureDouble(Integer::doubleValue, x);
        touches.add(() -> assertEquals(s.toUpperCase(), obj.touch()));
        touches.add(() -> assertEquals(s.length(), longOfRef.touchLong()));
        touches.add(() -> assertEquals(square(x), longOfInt.touchLong()));
        touches.add(() -> assertEquals(s.hashCode(), intOfRef.touchInt()));
        touches.add(() -> assertEquals(x + 1, intOfInt.touchInt()));
        touches.add(() -> assertEquals(x, doubleOfRef.touchDouble()));
        touches.add(() -> assertEquals(square(x), longOfInt.touch(), "the boxed touch"));
        return touches;
    }

    private static void touchAll(List<Runnable> touches) {
        for (int i = touches.size() - 1; i >= 0; i--) {     // newest first, then oldest first below
            touches.get(i).run();
        }
    }

    @Test
    void everyFormGivesItsValueLatentRunAtCreationAndPromoted() throws Exception {
        try (QuietPool quiet = new QuietPool()) {
            onWorker(quiet.pool, () -> {
                int keep = ((Worker) Thread.currentThread()).latentKeep();
                // The first futures go latent, the rest run at their creation (or, under
                // spawn=always, every one is promoted).
                List<Runnable> first = createEachForm(3);
                List<Runnable> second = createEachForm(-7);
                assertTrue(keep >= 1, "a worker of a pool of two keeps latent futures");
                touchAll(second);
                touchAll(first);
                // Latent ones exposed: promoted, then claimed by their touch.
                List<Runnable> promoted = createEachForm(11);
                ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                for (Runnable t : promoted) {
                    t.run();
                }
                return null;
            });
        }
        // from a thread that is not a worker
        List<Runnable> external = createEachForm(5);
        for (Runnable t : external) {
            t.run();
        }
    }

    @Test
    void aFailureIsRaisedAtTheTouchAfterTheContinuationRan() throws Exception {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        IntToLongFunction fails = x -> {
            throw boom;
        };
        try (QuietPool quiet = new QuietPool()) {
            onWorker(quiet.pool, () -> {
                int keep = ((Worker) Thread.currentThread()).latentKeep();
                List<LongFuture> futures = new ArrayList<>();
                for (int i = 0; i < keep + 2; i++) {           // latent ones and ones run at creation
                    futures.add(Spindle.futureLong(fails, i));
                }
                boolean continued = true;                       // creation did not throw
                assertTrue(continued);
                for (int i = futures.size() - 1; i >= 0; i--) {
                    LongFuture f = futures.get(i);
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, f::touchLong);
                    assertSame(boom, e, "the body's own exception, future " + i);
                    assertThrows(IllegalArgumentException.class, f::touchLong, "every later touch raises again");
                }
                return null;
            });
        }
    }

    @Test
    void aNullFunctionIsRefusedAtCreation() throws Exception {
        Runnable[] forms = {
                () -> Spindle.future((Function<Object, Object>) null, "x"),
                () -> Spindle.futureLong((ToLongFunction<Object>) null, "x"),
                () -> Spindle.futureLong((IntToLongFunction) null, 1),
                () -> Spindle.futureInt((ToIntFunction<Object>) null, "x"),
                () -> Spindle.futureInt((IntUnaryOperator) null, 1),
                () -> Spindle.futureDouble((ToDoubleFunction<Object>) null, "x"),
        };
        for (Runnable form : forms) {
            NullPointerException e = assertThrows(NullPointerException.class, form::run);
            assertEquals("fn", e.getMessage());
        }
        try (QuietPool quiet = new QuietPool()) {
            onWorker(quiet.pool, () -> {
                for (Runnable form : forms) {
                    NullPointerException e = assertThrows(NullPointerException.class, form::run);
                    assertEquals("fn", e.getMessage());
                }
                return null;
            });
        }
    }
}
