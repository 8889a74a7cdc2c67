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
    long value;                                         // package-private: SerialFutures.touchLong reads it

    /** The handle of the future {@code s} just admitted as {@code number} (see {@link LazyFuture#create}). */
    private LongFuture(LatentStack s, long number) {
        super(s, number);
        value = s.madeBits;
        CELL.setRelease(this, s.madeCell);                 // after the value: a toucher that sees the cell sees the value
    }

    /** The handle of a future run at its creation: its outcome {@code cell}, and its value's raw bits. */
    LongFuture(ExposedFutures region, long number, Object cell, long bits) {
        super(region, number, NO_BODY);
        value = bits;
        CELL.setRelease(this, cell);                       // after the value, as above
    }

    /**
     * The handle of a future a woven serial method made in place on thread {@code t}, the calling
     * thread ({@link SerialFutures}), with the value's raw bits: no table, no number (it was never
     * on a stack, and every path that would look it up reads the final cell first). Counting the
     * future is the caller's part.
     */
    LongFuture(Thread t, long bits, Object cell) {
        super(null, LatentStack.MADE_IN_PLACE, NO_BODY, t);
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
        return new LongFuture(Objects.requireNonNull(fn, "fn"), arg, 0, FunctionCall.LONG_OF_REF, Thread.currentThread());
    }

    /**
     * {@link #of(ToLongFunction, Object)} for an {@code int} argument, which is not boxed.
     *
     * <h2>How it is compiled</h2>
     * The handle's constructors decide ({@link LatentStack#runsNow}) and, for a future that runs
     * now, take its number and table themselves and have {@link LatentStack#admit} only apply the
     * function ({@link LatentStack#APPLY}): the value comes back as the call's return value and a
     * failure as an exception, so every field of the handle is a value in the caller's compiled
     * code, the handle is scalar replaced, and since it holds the thread this factory read
     * ({@code LazyFuture.owner}) the touch folds down to the value. The latent path pushes the
     * call ({@link LatentStack#pushCall}); both meet in <em>one</em> allocation (two allocation
     * sites that meet are not removed once both paths are compiled). The table and the number are
     * read before the decision, so that they are the same values on both paths: where both paths
     * are compiled (two workers) only the body, the cell and the value merge, and each merged
     * value is one more register kept across the continuation (Fib at two workers 343–361 ms with
     * all five merged, 297–322 with three; PERFORMANCE.md, futures suite, "Seventeenth session").
     * Three rules of the JIT decide this shape (PERFORMANCE.md, futures suite, "Sixteenth session"):
     * <ul>
     *   <li>C2 inlines a constructor whatever its call site's frequency, up to
     *       {@code FreqInlineSize}, when escape analysis is on, while a static factory of that
     *       length is inlined only at call sites C2 finds hot: as a factory, in one JVM of about
     *       ten the tree sum's handle was allocated (48 bytes per future, twice the time);</li>
     *   <li>the function runs inside {@code admit}, which is never inlined: a factory that ran
     *       it itself got a C2 compilation of its own (C1 inlines a callee at nesting level k only
     *       up to 35 × 0.9<sup>k</sup> bytes), which contained the recursion, passed
     *       {@code InlineSmallCode} and was then refused everywhere ("already compiled into a big
     *       method");</li>
     *   <li>the touch tests ownership before the cell (see {@link #touchLong()}).</li>
     * </ul>
     *
     * @param fn  the function
     * @param arg its argument, evaluated now
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static LongFuture of(IntToLongFunction fn, int arg) {
        return new LongFuture(Objects.requireNonNull(fn, "fn"), null, arg, FunctionCall.LONG_OF_INT, Thread.currentThread());
    }

    /** A primitive call-form future: see {@link #of(IntToLongFunction, int)}. */
    private LongFuture(Object fn, Object ref, int arg, int kind, Thread t) {
        this(fn, ref, arg, kind, t, LatentStack.of(t));
    }

    private LongFuture(Object fn, Object ref, int arg, int kind, Thread t, LatentStack s) {
        this(fn, ref, arg, kind, t, s, s.currentRegion(), s.upcomingNumber());
    }

    private LongFuture(Object fn, Object ref, int arg, int kind, Thread t, LatentStack s, ExposedFutures r, long k) {
        this(fn, ref, arg, kind, t, s, r, k, s.runsNow() ? s.runNow() : s.pushCall(fn, ref, arg, kind, k));
    }

    /** {@code b}: {@code NO_BODY} for a future that runs now, else the latent body the stack holds. */
    private LongFuture(Object fn, Object ref, int arg, int kind, Thread t, LatentStack s, ExposedFutures r, long k, Object b) {
        super(r, k, b, t);
        long v = 0L;
        Object c = null;
        if (b == NO_BODY) {
            try {
                v = s.admit(fn, ref, arg, kind | LatentStack.APPLY);
                c = Outcome.IN_HANDLE;
            } catch (Throwable ex) {
                c = s.failedAtCreation(r, k, ex);
            }
        }
        value = v;
        CELL.setRelease(this, c);                          // after the value, as above
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
        // First, on every touch: where no handle is shared its profile says "never taken" and C2
        // compiles a trap instead of touchShared(this), which would keep the handle allocated.
        // Tested after the cell, it ran only for latent futures, too rarely at two workers for a
        // profile C2 trusts, and the handle stayed (Fib: 40 bytes per future).
        if (owner != Thread.currentThread()) {
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
