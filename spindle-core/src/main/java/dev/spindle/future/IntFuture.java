package dev.spindle.future;

import java.util.Objects;
import java.util.function.IntSupplier;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;

/**
 * A {@link LazyFuture} of an {@code int}, whose {@link #touchInt()} returns the value unboxed.
 *
 * <p>Everything {@link LazyFuture} says holds here: this is one, created by
 * {@code Spindle.futureInt(body)}, and {@link #touch()} and {@link #get()} return the value boxed.
 * What the primitive touch adds is that no path boxes it. With a generic future, the owner's
 * touch returns either the body's fresh box or, for a future that was promoted, the box another
 * thread stored; where both paths are compiled (a worker that is sometimes stolen from) C2 cannot
 * remove the fresh box, because it merges with the other object before the caller unboxes it.
 * Here the two paths merge as {@code int} values, so a future nobody promoted allocates only the
 * caller's lambda at any number of workers.
 */
public final class IntFuture extends LazyFuture<Integer> {

    /** The value, when the cell is {@link Outcome#IN_HANDLE}: run at its creation or at the owner's touch. */
    int value;                                         // package-private: SerialFutures.touchInt reads it

    /** The handle of the future {@code s} just admitted as {@code number} (see {@link LazyFuture#create}). */
    private IntFuture(LatentStack s, long number) {
        super(s, number);
        value = (int) s.madeBits;
        CELL.setRelease(this, s.madeCell);                 // after the value: a toucher that sees the cell sees the value
    }

    /** The handle of a future run at its creation: its outcome {@code cell}, and its value's raw bits. */
    IntFuture(ExposedFutures region, long number, Object cell, long bits) {
        super(region, number, NO_BODY);
        value = (int) bits;
        CELL.setRelease(this, cell);                       // after the value, as above
    }

    /**
     * The handle of a future a woven serial method made in place on thread {@code t}, the calling
     * thread ({@link SerialFutures}), with the value's raw bits: no table, no number (it was never
     * on a stack, and every path that would look it up reads the final cell first). Counting the
     * future is the caller's part.
     */
    IntFuture(Thread t, long bits, Object cell) {
        super(null, LatentStack.MADE_IN_PLACE, NO_BODY, t);
        value = (int) bits;
        CELL.setRelease(this, cell);                       // after the value, as above
    }

    /**
     * Creates a future of an {@code int} supplier on the calling thread's latent stack.
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static IntFuture of(IntSupplier body) {
        return create(Objects.requireNonNull(body, "body"));
    }

    /**
     * Creates a future of {@code fn} applied to {@code arg}: the call form (see
     * {@link LongFuture#of(ToLongFunction, Object)}).
     *
     * @param fn  the function
     * @param arg its argument, evaluated now
     * @param <A> argument type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A> IntFuture of(ToIntFunction<? super A> fn, A arg) {
        return new IntFuture(Objects.requireNonNull(fn, "fn"), arg, 0, FunctionCall.INT_OF_REF, Thread.currentThread());
    }

    /**
     * {@link #of(ToIntFunction, Object)} for an {@code int} argument, which is not boxed.
     *
     * @param fn  the function
     * @param arg its argument, evaluated now
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static IntFuture of(IntUnaryOperator fn, int arg) {
        return new IntFuture(Objects.requireNonNull(fn, "fn"), null, arg, FunctionCall.INT_OF_INT, Thread.currentThread());
    }

    /** A primitive call-form future: see {@code LongFuture.of(IntToLongFunction, int)}. */
    private IntFuture(Object fn, Object ref, int arg, int kind, Thread t) {
        this(fn, ref, arg, kind, t, LatentStack.of(t));
    }

    private IntFuture(Object fn, Object ref, int arg, int kind, Thread t, LatentStack s) {
        this(fn, ref, arg, kind, t, s, s.currentRegion(), s.upcomingNumber());
    }

    private IntFuture(Object fn, Object ref, int arg, int kind, Thread t, LatentStack s, ExposedFutures r, long k) {
        this(fn, ref, arg, kind, t, s, r, k, s.runsNow() ? s.runNow() : s.pushCall(fn, ref, arg, kind, k));
    }

    /** {@code b}: {@code NO_BODY} for a future that runs now, else the latent body the stack holds. */
    private IntFuture(Object fn, Object ref, int arg, int kind, Thread t, LatentStack s, ExposedFutures r, long k, Object b) {
        super(r, k, b, t);
        int v = 0;
        Object c = null;
        if (b == NO_BODY) {
            try {
                v = (int) s.admit(fn, ref, arg, kind | LatentStack.APPLY);
                c = Outcome.IN_HANDLE;
            } catch (Throwable ex) {
                c = s.failedAtCreation(r, k, ex);
            }
        }
        value = v;
        CELL.setRelease(this, c);                          // after the value, as above
    }

    static IntFuture create(Object body) {
        LatentStack s = LatentStack.current();
        return s.runsNow() ? ranAtCreation(s, body) : admitted(s, body);
    }

    /**
     * {@link #create} of a future run at its creation, in the caller's compiled code (see
     * {@code LazyFuture.ranAtCreation}): within {@code MaxInlineSize}, the value passed through
     * the stack's {@code madeBits}. Its own allocation site: at two workers, where both paths
     * are compiled, the two handles merge and stay allocated (40 bytes per future); one site
     * fed by the stack's {@code made*} fields was tried and kept the handle in some JVMs and
     * the lambda in others (PERFORMANCE.md, futures suite, "The body run in the caller's code").
     */
    private static IntFuture ranAtCreation(LatentStack s, Object body) {
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        Object c = Outcome.runIntAtCreation(s, r, k, body);
        return new IntFuture(r, k, c, s.madeBits);
    }

    /** {@link #create} of a future the stack may keep latent: {@link LatentStack#admit} decides again. */
    private static IntFuture admitted(LatentStack s, Object body) {
        return new IntFuture(s, s.admit(body, null, 0, LatentStack.INT));      // small for C1: see LatentStack.admit
    }

    /**
     * Returns the value boxed: {@link #touchInt()}.
     *
     * @return the value
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     * @throws IllegalStateException if called from inside this future's own body
     */
    @Override
    public final Integer touch() {
        return touchInt();
    }

    /**
     * Returns the value, as {@link #touch()} does, without boxing it.
     *
     * @return the value
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     * @throws IllegalStateException if called from inside this future's own body
     */
    public final int touchInt() {
        ExposedFutures r = region;
        if (owner != Thread.currentThread()) {             // first: see LongFuture.touchLong
            return touchShared();
        }
        Object known = cell;
        if (known != null) {
            if (known == Outcome.IN_HANDLE) {
                return value;                                  // run at its creation, or touched before
            }
            if (body == NO_BODY) {
                return (Integer) Outcome.report(known);            // failed at its creation
            }
            return touchShared();
        }
        if (r.popTop(body, number)) {
            cell = Outcome.RUNNING;
            int v;
            try {
                v = Outcome.invokeInt(body);
            } catch (Throwable ex) {
                CELL.setRelease(this, (Object) Outcome.failedTouched(ex));
                throw Outcome.forTouch(ex);
            }
            value = v;                                         // not boxed: see Outcome.IN_HANDLE
            CELL.setRelease(this, (Object) Outcome.IN_HANDLE); // removed with the handle where it does not escape
            return v;
        }
        Object c = r.settleOwned(number, body);
        CELL.setRelease(this, c);
        r.forget(number);
        return (Integer) Outcome.report(c);
    }

    @Override
    Object valueInHandle() {
        return value;
    }
}
