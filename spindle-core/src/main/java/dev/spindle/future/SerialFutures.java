package dev.spindle.future;

import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What a woven <em>serial method</em> calls in place of the object API's future factories: a
 * future run at its creation, whose body the method itself has just called in its own code.
 *
 * <p>The weaver (its {@code SerialFutureSplit}) splits a method that creates futures through
 * {@code Spindle.future(…)} and its primitive and call forms. The method as written moves to a
 * synthetic copy; the method itself becomes the serial method, in which each such factory call
 * becomes the body's own call — {@code supplier.get()}, {@code fn.applyAsLong(arg)}, or the
 * lambda's implementation method — preceded by {@link #countMadeInPlace()} and in a try/catch,
 * followed by {@link #handleLong(long, Throwable)} (or its siblings) with the value or the
 * failure. It starts with
 * {@code if (SerialFutures.mayKeepLatent()) return copy(args…, null);}: a frame whose futures the
 * stack could keep latent (it holds fewer than it keeps, or a worker asked for work) runs the
 * method as written, so the runtime decides at every future; every other frame runs the serial
 * method. Both are outcomes the runtime may choose — a future may always run at its creation — so
 * the split changes no semantics; what it changes is the compiled code: the serial method has no
 * latent path, so at two workers and more C2 compiles it as at one worker, where escape analysis
 * removes the handle (and the lambda, where the body is called through it).
 *
 * <p>Each method here is within C2's {@code MaxInlineSize}, and the handles are built by
 * constructors, which C2 inlines at any call-site frequency. A future made here counts as created
 * and run inline, on the worker ({@code Worker.countMadeInPlace}) rather than in the latent
 * stack's {@code created}, which cost twice as much per future; its handle carries no table and no
 * number, having never been on a stack (PERFORMANCE.md, futures suite, "Twenty-third session").
 * The count is taken at the site, before the body's call ({@link #countMadeInPlace()}), not when
 * the handle is built after it: right after the prologue the current thread is still in a register,
 * where after the body's call it must be reloaded, and the count of the level C2 inlines below
 * comes next, so that C2 adds both at once (PERFORMANCE.md, futures suite, "Thirtieth session").
 */
public final class SerialFutures {

    /** {@code -Dspindle.future.serialMethods=false}: every frame runs its method as written. */
    static final boolean SERIAL_METHODS = serialMethods(System.getProperty("spindle.future.serialMethods"));

    /**
     * {@code Worker.madeInPlace}, the worker's count of futures its serial methods made in place
     * (owner-only, plain access): see {@link #countMadeInPlace()}.
     */
    private static final VarHandle MADE_IN_PLACE;

    static {
        try {
            MADE_IN_PLACE = MethodHandles.privateLookupIn(Worker.class, MethodHandles.lookup())
                    .findVarHandle(Worker.class, "madeInPlace", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private SerialFutures() {
    }

    /** The switch's value: absent or {@code true} → on, {@code false} → off, anything else refused by name. */
    static boolean serialMethods(String value) {
        if (value == null || value.equals("true")) {
            return true;
        }
        if (value.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("spindle.future.serialMethods must be true or false, not \"" + value + "\"");
    }

    /**
     * The serial method's prologue: true if a future created now could be kept latent — the calling
     * thread's stack holds fewer latent futures than it keeps, or someone asked it for work, or
     * {@code spindle.spawn=always} — so the frame must run the method as written. Always true
     * under {@code -Dspindle.future.serialMethods=false}. On a worker it reads the worker's
     * mirror of its stack's room and its request hint ({@link Worker#mayKeepLatent()}), two loads
     * from the current thread (through the stack, Fib's serial method took 118 ms at one worker
     * against 110).
     *
     * @return whether to run the deferring method
     */
    public static boolean mayKeepLatent() {
        if (!SERIAL_METHODS) {
            return true;
        }
        Thread t = Thread.currentThread();
        if (t instanceof Worker) {                         // no pattern variable: within MaxInlineSize
            return ((Worker) t).mayKeepLatent();
        }
        return LatentStack.externalMayKeepLatent(t);
    }

    /**
     * The serial method's way to the method as written, once its prologue answered yes: the copy's
     * marker argument (always null). On a worker that went there for a request hint alone, the
     * hint is confirmed or cleared here ({@link Worker#confirmRequestHint()}) — on this path, which
     * returns what the copy returns, rather than in the prologue, where a call that rejoins the
     * serial method would be compiled into every frame's code.
     *
     * @return null
     */
    public static SerialFutures asWritten() {
        if (Thread.currentThread() instanceof Worker w) {
            w.confirmRequestHint();
        }
        return null;
    }

    /**
     * Woven code, right before a serial method calls a future's body in place (after the factory's
     * null check, which fails before any future exists): counts one future created and run inline
     * on the calling thread. A body that then fails leaves a handle that its stack numbers and
     * counts instead ({@link #handle}).
     *
     * <p>On a worker the increment is done here, on the worker's own field through
     * {@link #MADE_IN_PLACE}, not by a method of the worker: where C2 compiles a serial method
     * whose callees it has no call counts for (its tier-3 code skipped), it refuses every small
     * static or virtual method below the serial method's own calls ("low call site frequency"),
     * while VarHandle accesses are always inlined. Through {@code LatentStack.countMadeInPlace}
     * and {@code Worker.countMadeInPlace}, Knapsack at one worker left the count a call in one JVM
     * of three (PERFORMANCE.md, futures suite, "Thirty-first session").
     */
    public static void countMadeInPlace() {
        Thread t = Thread.currentThread();
        if (t instanceof Worker) {                         // no cast to Worker here: within MaxInlineSize
            MADE_IN_PLACE.set(t, (long) MADE_IN_PLACE.get(t) + 1L);   // the handle casts, and C2 folds the cast
            return;
        }
        LatentStack.countExternalMadeInPlace(1);
    }

    /**
     * {@link LazyFuture#touch()} as a serial method makes it: the same fast path, in a method of its
     * own so that its branch profile is the serial methods' alone. There nearly every handle
     * holds its outcome from its creation, so C2 compiles the other path as a trap and escape
     * analysis removes the handle; through {@code touch()} itself, whose profile the deferring
     * methods' latent touches share at two workers, the call that takes the handle was compiled
     * and the handle allocated (FFT: 40 bytes per future).
     *
     * @param f the future
     * @return its value
     */
    public static Object touch(LazyFuture<?> f) {
        Object c = LazyFuture.CELL.getAcquire(f);
        if (c == null || f.body != LazyFuture.NO_BODY) {
            return f.touchLatent();
        }
        return Outcome.report(c);
    }

    /**
     * The touch of a handle the weaver proved was built in this frame by {@link #handle}: every
     * value the touched variable can hold there comes from the builder (ASM's source analysis of
     * the serial method). Such a handle's cell is final from its construction, on this thread — the
     * value, or the body's failure — so this touch only reports it, with no branch to the general
     * touch. {@link #touch} relies on C2 compiling that branch as a trap; where C2 compiles the
     * serial method without the branch's profile (its tier-3 code skipped, or
     * {@code -XX:PerMethodTrapLimit=0}), the branch passes the handle to a call and it is
     * allocated: Knapsack at one worker, 40 bytes per future and 1.7× the time (PERFORMANCE.md,
     * futures suite, "Thirty-first session").
     *
     * @param f a handle built by {@link #handle} in the calling frame
     * @return its value
     */
    public static Object touchInPlace(LazyFuture<?> f) {
        Object c = f.cell;
        if (c instanceof Outcome) {                        // null, a failure, or a result that is an Outcome
            return c == Outcome.NULL ? null : Outcome.report(c);
        }
        return c;
    }

    /**
     * {@link #touchInPlace} for a {@code long} handle built by {@link #handleLong}: its value, or
     * its body's failure thrown.
     *
     * @param f a handle built by {@link #handleLong} in the calling frame
     * @return its value
     */
    public static long touchLongInPlace(LongFuture f) {
        Object c = f.cell;
        if (c != Outcome.IN_HANDLE) {
            Outcome.report(c);                             // the body's failure: throws
        }
        return f.value;
    }

    /**
     * {@link #touchInPlace} for an {@code int} handle built by {@link #handleInt}.
     *
     * @param f a handle built by {@link #handleInt} in the calling frame
     * @return its value
     */
    public static int touchIntInPlace(IntFuture f) {
        Object c = f.cell;
        if (c != Outcome.IN_HANDLE) {
            Outcome.report(c);                             // the body's failure: throws
        }
        return f.value;
    }

    /**
     * {@link #touchInPlace} for a {@code double} handle built by {@link #handleDouble}.
     *
     * @param f a handle built by {@link #handleDouble} in the calling frame
     * @return its value
     */
    public static double touchDoubleInPlace(DoubleFuture f) {
        Object c = f.cell;
        if (c != Outcome.IN_HANDLE) {
            Outcome.report(c);                             // the body's failure: throws
        }
        return f.value;
    }

    /**
     * {@link LongFuture#touchLong()} as a serial method makes it: the value where the handle holds
     * it, otherwise the handle's own touch. {@code touchLong} runs a popped latent body in itself,
     * so where C2 compiles it on its own first it inlines the body, and with it the recursion,
     * into a big method that no caller may inline ("already compiled into a big method"): the
     * serial method then passes the handle to the call and it is allocated (TreeSum-1K at two
     * workers: one JVM in six to eight ran at 38–47 ms with 48 bytes per future, against 16–20 ms
     * and none; PERFORMANCE.md, futures suite, "Twenty-eighth session"). This method is within
     * {@code MaxInlineSize}, so C2 inlines it everywhere, and a serial method's handles hold their
     * value from their creation, so the other path compiles as a trap there.
     *
     * @param f the future
     * @return its value
     */
    public static long touchLong(LongFuture f) {
        if (LazyFuture.CELL.getAcquire(f) == Outcome.IN_HANDLE) {
            return f.value;
        }
        return f.touchLong();
    }

    /**
     * {@link IntFuture#touchInt()} as a serial method makes it; see {@link #touchLong(LongFuture)}.
     *
     * @param f the future
     * @return its value
     */
    public static int touchInt(IntFuture f) {
        if (LazyFuture.CELL.getAcquire(f) == Outcome.IN_HANDLE) {
            return f.value;
        }
        return f.touchInt();
    }

    /**
     * {@link DoubleFuture#touchDouble()} as a serial method makes it; see {@link #touchLong(LongFuture)}.
     *
     * @param f the future
     * @return its value
     */
    public static double touchDouble(DoubleFuture f) {
        if (LazyFuture.CELL.getAcquire(f) == Outcome.IN_HANDLE) {
            return f.value;
        }
        return f.touchDouble();
    }

    /**
     * The handle of a future a serial method made in place and counted at its site
     * ({@link #countMadeInPlace()}): of {@code value} if {@code failure} is null, else of the
     * failure, which its stack numbers and counts in place of the site. The woven code calls this
     * once, after its body's call and that call's handler merge, and this method builds the handle
     * with one constructor whichever way the body ended, so the handle has a single allocation
     * site: a handle merged with any other object escapes.
     * <ul>
     * <li>With one builder per path, where C2 did not inline the body's call the handler stayed live
     * and the two handles merged into the user's variable: Knapsack at one worker ran 1.6× slower
     * with 40 bytes per future in one JVM of three to eight (PERFORMANCE.md, futures suite,
     * "Twenty-eighth session").</li>
     * <li>With one builder that chose between the constructor and a static method returning the
     * failure's handle, the failure's branch compiled as a trap only where C2 had this method's
     * branch profile; a serial method compiled without it (its tier-3 code skipped) merged the two
     * handles again, with the same 40 bytes and 1.7× (one JVM of eight to nine; every JVM under
     * {@code -XX:PerMethodTrapLimit=0}, which keeps C2 from compiling any branch as a trap; "Thirty-first
     * session"). Now only the cell differs by path, and the failure's is the result of a call.</li>
     * </ul>
     * C2 inlines a constructor at any call-site frequency, but refuses a small static method at a
     * site whose profile counts are low, as they are where the method that holds it ran for a while
     * in C1 code that counts calls without profiling them: so the handle is built here, by a
     * constructor, rather than in another static method.
     *
     * @param value   the body's result, or null if it threw
     * @param failure what the body threw, or null
     * @param <T>     result type
     * @return its handle
     */
    public static <T> LazyFuture<T> handle(Object value, Throwable failure) {
        return new LazyFuture<>(Thread.currentThread(), value, failure == null ? null : failedInPlace(failure));
    }

    /**
     * {@link #handle} for a {@code long} future.
     *
     * @param value   the body's result, or 0 if it threw
     * @param failure what the body threw, or null
     * @return its handle
     */
    public static LongFuture handleLong(long value, Throwable failure) {
        return new LongFuture(Thread.currentThread(), value, failure == null ? Outcome.IN_HANDLE : failedInPlace(failure));
    }

    /**
     * {@link #handle} for an {@code int} future.
     *
     * @param value   the body's result, or 0 if it threw
     * @param failure what the body threw, or null
     * @return its handle
     */
    public static IntFuture handleInt(int value, Throwable failure) {
        return new IntFuture(Thread.currentThread(), value, failure == null ? Outcome.IN_HANDLE : failedInPlace(failure));
    }

    /**
     * {@link #handle} for a {@code double} future.
     *
     * @param value   the body's result, or 0 if it threw
     * @param failure what the body threw, or null
     * @return its handle
     */
    public static DoubleFuture handleDouble(double value, Throwable failure) {
        return new DoubleFuture(Thread.currentThread(), Double.doubleToRawLongBits(value),
                failure == null ? Outcome.IN_HANDLE : failedInPlace(failure));
    }

    /**
     * The handle of a future made in place, counted here: what serial methods woven before the count
     * moved to the site ({@link #countMadeInPlace()}) call in place of {@link #handle}.
     *
     * @param value   the body's result, or null if it threw
     * @param failure what the body threw, or null
     * @param <T>     result type
     * @return its handle
     */
    public static <T> LazyFuture<T> made(Object value, Throwable failure) {
        countMadeInPlace();                                // a failure's handle takes it back
        return handle(value, failure);
    }

    /**
     * {@link #made} for a {@code long} future.
     *
     * @param value   the body's result, or 0 if it threw
     * @param failure what the body threw, or null
     * @return its handle
     */
    public static LongFuture madeLong(long value, Throwable failure) {
        countMadeInPlace();
        return handleLong(value, failure);
    }

    /**
     * {@link #made} for an {@code int} future.
     *
     * @param value   the body's result, or 0 if it threw
     * @param failure what the body threw, or null
     * @return its handle
     */
    public static IntFuture madeInt(int value, Throwable failure) {
        countMadeInPlace();
        return handleInt(value, failure);
    }

    /**
     * {@link #made} for a {@code double} future.
     *
     * @param value   the body's result, or 0 if it threw
     * @param failure what the body threw, or null
     * @return its handle
     */
    public static DoubleFuture madeDouble(double value, Throwable failure) {
        countMadeInPlace();
        return handleDouble(value, failure);
    }

    /**
     * A future that ran at its creation and returned {@code value}. The weaver calls {@link #handle}
     * and its siblings since the thirtieth session ({@link #made} and its siblings before, this
     * method and its siblings before that); the older methods, and {@link #failed} and its
     * siblings, stay for the classes woven before, which call them.
     *
     * @param value the body's result
     * @param <T>   result type
     * @return its handle
     */
    public static <T> LazyFuture<T> ran(Object value) {
        countMadeInPlace();
        return handle(value, null);
    }

    /**
     * A {@code long} future that ran at its creation.
     *
     * @param value the body's result
     * @return its handle
     */
    public static LongFuture ranLong(long value) {
        countMadeInPlace();
        return handleLong(value, null);
    }

    /**
     * An {@code int} future that ran at its creation.
     *
     * @param value the body's result
     * @return its handle
     */
    public static IntFuture ranInt(int value) {
        countMadeInPlace();
        return handleInt(value, null);
    }

    /**
     * A {@code double} future that ran at its creation.
     *
     * @param value the body's result
     * @return its handle
     */
    public static DoubleFuture ranDouble(double value) {
        countMadeInPlace();
        return handleDouble(value, null);
    }

    /**
     * A future whose body threw at its creation: every touch raises {@code failure}, and if nobody
     * touches it, it is reported as any other untouched failure.
     *
     * @param failure what the body threw
     * @param <T>     result type
     * @return its handle
     */
    public static <T> LazyFuture<T> failed(Throwable failure) {
        LatentStack s = LatentStack.current();
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        Outcome c = s.failedAtCreation(r, k, failure);
        LazyFuture<T> f = new LazyFuture<>(r, k, LazyFuture.NO_BODY);
        LazyFuture.CELL.setRelease(f, (Object) c);
        return f;
    }

    /**
     * {@link #failed(Throwable)} for a {@code long} future.
     *
     * @param failure what the body threw
     * @return its handle
     */
    public static LongFuture failedLong(Throwable failure) {
        LatentStack s = LatentStack.current();
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        return new LongFuture(r, k, s.failedAtCreation(r, k, failure), 0L);
    }

    /**
     * {@link #failed(Throwable)} for an {@code int} future.
     *
     * @param failure what the body threw
     * @return its handle
     */
    public static IntFuture failedInt(Throwable failure) {
        LatentStack s = LatentStack.current();
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        return new IntFuture(r, k, s.failedAtCreation(r, k, failure), 0L);
    }

    /**
     * {@link #failed(Throwable)} for a {@code double} future.
     *
     * @param failure what the body threw
     * @return its handle
     */
    public static DoubleFuture failedDouble(Throwable failure) {
        LatentStack s = LatentStack.current();
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        return new DoubleFuture(r, k, s.failedAtCreation(r, k, failure), 0L);
    }

    /**
     * The failure path of {@link #handle} and its siblings: the outcome of a future made in place
     * whose body threw. The stack numbers and counts the failed future and records it as untouched
     * until a touch observes it ({@link LatentStack#failedAtCreation}), so the site's count is
     * taken back. It returns the outcome, not a handle: the builder's one constructor holds either
     * cell, so that where C2 compiles this path (a serial method compiled without a branch profile
     * for the builder) the handle still has one allocation site and nothing merges with it.
     */
    static Outcome failedInPlace(Throwable failure) {
        LatentStack s = LatentStack.current();
        ExposedFutures r = s.currentRegion();
        Outcome o = s.failedAtCreation(r, s.nextNumber(), failure);
        Thread t = Thread.currentThread();                 // the site's count taken back, as countMadeInPlace() made it
        if (t instanceof Worker) {
            MADE_IN_PLACE.set(t, (long) MADE_IN_PLACE.get(t) - 1L);
        } else {
            LatentStack.countExternalMadeInPlace(-1);
        }
        return o;
    }
}
