package dev.spindle.future;

import java.util.Objects;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * A {@link LazyFuture} of a {@code long}, whose {@link #touchLong()} returns the value unboxed.
 *
 * <p>Everything {@link LazyFuture} says holds here: this is one, created by
 * {@code Spindle.futureLong(body)}, and {@link #touch()} and {@link #get()} return the value boxed.
 * What the primitive touch adds is that no path boxes it. With a generic future, the owner's
 * touch returns either the body's fresh box or, for a future that was promoted, the box another
 * thread stored; where both paths are compiled (a worker that is sometimes stolen from) C2 cannot
 * remove the fresh box, because it merges with the other object before the caller unboxes it.
 * Here the two paths merge as {@code long} values, so a future nobody promoted allocates only the
 * caller's lambda at any number of workers.
 *
 * <pre>{@code
 * static long sum(Node n) {
 *     if (n == null) return 0;
 *     LongFuture right = Spindle.futureLong(() -> sum(n.right));
 *     long left = sum(n.left);
 *     return left + right.touchLong() + n.value;
 * }
 * }</pre>
 */
public final class LongFuture extends LazyFuture<Long> {

    /** The value, when the cell is {@link Outcome#IN_HANDLE}: run at its creation or at the owner's touch. */
    private long value;

    /** The handle of the future {@code s} just admitted as {@code number} (see {@link LazyFuture#create}). */
    private LongFuture(LatentStack s, long number) {
        super(s, number);
        value = s.madeBits;
        CELL.setRelease(this, s.madeCell);                 // after the value: a toucher that sees the cell sees the value
    }

    /** The handle of a future run at its creation: its outcome {@code cell}, and its value's raw bits. */
    private LongFuture(ExposedFutures region, long number, Object cell, long bits) {
        super(region, number, NO_BODY);
        value = bits;
        CELL.setRelease(this, cell);                       // after the value, as above
    }

    /**
     * Creates a future of a {@code long} supplier on the calling thread's latent stack.
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static LongFuture of(LongSupplier body) {
        return create(Objects.requireNonNull(body, "body"));
    }

    /**
     * Creates a future of {@code fn} applied to {@code arg} — the call form, which allocates
     * nothing for a future that runs at its creation when {@code fn} captures nothing (see
     * {@link FunctionCall}).
     *
     * <pre>{@code
     * static long sum(Node n) {
     *     if (n == null) return 0;
     *     LongFuture left = LongFuture.of(Tree::sum, n.left);
     *     long right = sum(n.right);
     *     return left.touchLong() + right + n.value;
     * }
     * }</pre>
     *
     * @param fn  the function
     * @param arg its argument, evaluated now
     * @param <A> argument type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A> LongFuture of(ToLongFunction<? super A> fn, A arg) {
        Objects.requireNonNull(fn, "fn");
        LatentStack s = LatentStack.current();
        return new LongFuture(s, s.admit(fn, arg, 0, FunctionCall.LONG_OF_REF));
    }

    /**
     * {@link #of(ToLongFunction, Object)} for an {@code int} argument, which is not boxed.
     *
     * @param fn  the function
     * @param arg its argument, evaluated now
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static LongFuture of(IntToLongFunction fn, int arg) {
        Objects.requireNonNull(fn, "fn");
        LatentStack s = LatentStack.current();
        return new LongFuture(s, s.admit(fn, null, arg, FunctionCall.LONG_OF_INT));
    }

    static LongFuture create(Object body) {
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
    private static LongFuture ranAtCreation(LatentStack s, Object body) {
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        Object c = Outcome.runLongAtCreation(s, r, k, body);
        return new LongFuture(r, k, c, s.madeBits);
    }

    /** {@link #create} of a future the stack may keep latent: {@link LatentStack#admit} decides again. */
    private static LongFuture admitted(LatentStack s, Object body) {
        return new LongFuture(s, s.admit(body, null, 0, LatentStack.LONG));      // small for C1: see LatentStack.admit
    }

    /**
     * Returns the value boxed: {@link #touchLong()}.
     *
     * @return the value
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     * @throws IllegalStateException if called from inside this future's own body
     */
    @Override
    public final Long touch() {
        return touchLong();
    }

    /**
     * Returns the value, as {@link #touch()} does, without boxing it.
     *
     * @return the value
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     * @throws IllegalStateException if called from inside this future's own body
     */
    public final long touchLong() {
        ExposedFutures r = region;
        if (!r.ownedByCurrentThread()) {                   // as in touch(): C2 sees it never taken
            return touchShared();
        }
        Object known = cell;
        if (known != null) {
            if (known == Outcome.IN_HANDLE) {
                return value;                                  // run at its creation, or touched before
            }
            if (body == NO_BODY) {
                return (Long) Outcome.report(known);            // failed at its creation
            }
            return touchShared();
        }
        if (r.popTop(body, number)) {
            cell = Outcome.RUNNING;
            long v;
            try {
                v = Outcome.invokeLong(body);
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
        return (Long) Outcome.report(c);
    }

    @Override
    Object valueInHandle() {
        return value;
    }
}
