package dev.spindle.future;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How a future ended, as stored in its cell: a failure, a cancellation, a {@code null} result, or
 * a result that could be mistaken for another cell state (a running marker). Any other
 * result is stored as itself, so a successful future allocates nothing here.
 */
final class Outcome {
    static final Outcome NULL = new Outcome(null, null);
    static final Outcome CANCELLED = new Outcome(null, null);
    /** The cell of a handle whose touch runs the body inline (always on the future's owner). */
    static final Outcome RUNNING = new Outcome(null, null);
    /**
     * The cell of a primitive future run at its creation or at its owner's touch: the value is in
     * the handle's primitive field, written before this marker (release). Final, like a result; {@code LazyFuture.resolve}
     * boxes the value for the paths that return objects. It keeps the owner's touch free of a box
     * that escape analysis could not remove (C2 inlines {@code Long.valueOf}, whose cached and new
     * boxes merge: measured 26.2 bytes per future on fib with the box, 16.0 without).
     */
    static final Outcome IN_HANDLE = new Outcome(null, null);
    private static final int MAX_TOUCH_SITES = 8;

    final Object value;
    final Throwable failure;
    /** Set once somebody has been given the failure: a touch, a scope, or the untouched-failure report. */
    volatile boolean observed;

    private Outcome(Object value, Throwable failure) {
        this.value = value;
        this.failure = failure;
    }

    static Outcome failed(Throwable ex) {
        return new Outcome(null, ex);
    }

    /** The cell value for a successful result. */
    static Object encode(Object r) {
        if (r == null) {
            return NULL;
        }
        if (r instanceof Outcome) {
            return new Outcome(r, null);
        }
        return r;
    }

    /** True if a cell value is final: not null (unknown) and not the running marker. */
    static boolean isFinal(Object c) {
        return c != null && c != RUNNING;
    }

    /** Runs a body; returns the cell value of how it ended. */
    static Object run(Object body) {
        try {
            return encode(invoke(body));
        } catch (Throwable ex) {
            return failed(ex);
        }
    }

    /**
     * The outcome of a future of the object API run at its creation, in its creator's compiled
     * code ({@code LazyFuture.create}); a failure is recorded for the untouched-failure report.
     * Within {@code MaxInlineSize}, so that C2 inlines it and the body's call here.
     *
     * <p>Every method between the caller's {@code Spindle.future…(() -> …)} and the handle's
     * constructors costs a level of inlining, and C2 inlines at most {@code MaxInlineLevel} (15)
     * levels deep: a recursive body inlined into itself passes this chain twice, and where the
     * second pass ended 17 levels down C2 stopped inlining the handle's constructor there
     * ("inlining too deep"), so every other level of the recursion allocated its handle and
     * lambda (fib(32) with {@code Spindle.futureLong(() -> fib(n - 1))}: 7.55 bytes per future,
     * 37–40 ms; seq 21). So this method and its siblings below call the supplier themselves, not
     * through {@link #invoke} and its siblings (0 bytes, 33 ms) — a callable is wrapped in a
     * {@link CallableBody} at its creation, so the body here is always a Supplier — and the
     * handle is built by a constructor that does not delegate (PERFORMANCE.md, futures suite,
     * "Seventeenth session").
     */
    static Object runAtCreation(LatentStack s, ExposedFutures r, long k, Object body) {
        try {
            return encode(((Supplier<?>) body).get());
        } catch (Throwable ex) {
            return s.failedAtCreation(r, k, ex);
        }
    }

    /** {@link #runAtCreation} of a {@link LongFuture}: the value's raw bits left in the stack's {@code madeBits}. */
    static Object runLongAtCreation(LatentStack s, ExposedFutures r, long k, Object body) {
        try {
            s.madeBits = ((LongSupplier) body).getAsLong();
            return IN_HANDLE;
        } catch (Throwable ex) {
            return s.failedAtCreation(r, k, ex);
        }
    }

    /** {@link #runAtCreation} of a {@link IntFuture}: the value's raw bits left in the stack's {@code madeBits}. */
    static Object runIntAtCreation(LatentStack s, ExposedFutures r, long k, Object body) {
        try {
            s.madeBits = ((IntSupplier) body).getAsInt();
            return IN_HANDLE;
        } catch (Throwable ex) {
            return s.failedAtCreation(r, k, ex);
        }
    }

    /** {@link #runAtCreation} of a {@link DoubleFuture}: the value's raw bits left in the stack's {@code madeBits}. */
    static Object runDoubleAtCreation(LatentStack s, ExposedFutures r, long k, Object body) {
        try {
            s.madeBits = Double.doubleToRawLongBits(((DoubleSupplier) body).getAsDouble());
            return IN_HANDLE;
        } catch (Throwable ex) {
            return s.failedAtCreation(r, k, ex);
        }
    }

    /** {@link #run} for a touch, which observes a failure itself (written out, not over
     * {@code run}: through {@code run} C2 kept a few more boxed results, 16.04 against 16.00 bytes
     * per future on fib). */
    static Object runTouched(Object body) {
        try {
            return encode(invoke(body));
        } catch (Throwable ex) {
            Outcome o = failed(ex);
            o.observed = true;
            return o;
        }
    }

    /**
     * Calls a body of the object API: a Supplier (a callable arrives wrapped in a
     * {@link CallableBody}, which lets its checked exceptions out undeclared), a primitive
     * supplier, or a {@link TracedBody} around one; so nothing here declares a checked exception.
     */
    static Object invoke(Object body) {
        return body instanceof Supplier<?> s ? s.get() : invokeOther(body);
    }

    private static Object invokeOther(Object body) {
        if (body instanceof LongSupplier s) {
            return s.getAsLong();
        }
        if (body instanceof IntSupplier s) {
            return s.getAsInt();
        }
        if (body instanceof DoubleSupplier s) {
            return s.getAsDouble();
        }
        return invoke(((TracedBody) body).body);
    }

    /** The body of a {@link LongFuture}, run for its owner's touch: no boxing unless traced. */
    static long invokeLong(Object body) {
        return body instanceof LongSupplier s ? s.getAsLong() : (Long) invoke(body);
    }

    /** The body of an {@link IntFuture}, run for its owner's touch: no boxing unless traced. */
    static int invokeInt(Object body) {
        return body instanceof IntSupplier s ? s.getAsInt() : (Integer) invoke(body);
    }

    /** The body of a {@link DoubleFuture}, run for its owner's touch: no boxing unless traced. */
    static double invokeDouble(Object body) {
        return body instanceof DoubleSupplier s ? s.getAsDouble() : (Double) invoke(body);
    }

    /** The outcome of a body that threw in a touch, which observes the failure itself. */
    static Outcome failedTouched(Throwable ex) {
        Outcome o = failed(ex);
        o.observed = true;
        return o;
    }

    /** A touch's view of a final cell value: the result, or the failure thrown as the issue says. */
    static Object report(Object c) {
        return c instanceof Outcome o ? reportOutcome(o) : c;
    }

    private static Object reportOutcome(Outcome o) {
        if (o == CANCELLED) {
            throw new CancellationException("future was cancelled");
        }
        Throwable ex = o.failure;
        if (ex == null) {
            return o.value;
        }
        o.observed = true;
        throw forTouch(ex);
    }

    /** Unchecked failures as themselves with a {@link TouchSite} added; checked ones wrapped. */
    static RuntimeException forTouch(Throwable ex) {
        if (ex instanceof RuntimeException || ex instanceof Error) {
            addTouchSite(ex);
            throw sneaky(ex);
        }
        return new CompletionException(ex);
    }

    /** Adds the calling thread's stack as a {@link TouchSite}, up to a few per exception. */
    static void addTouchSite(Throwable ex) {
        if (ex.getSuppressed().length < MAX_TOUCH_SITES) {
            ex.addSuppressed(new TouchSite(Thread.currentThread()));
        }
    }

    @SuppressWarnings("unchecked")
    static <X extends Throwable> RuntimeException sneaky(Throwable t) throws X {
        throw (X) t;
    }
}
