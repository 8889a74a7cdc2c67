package dev.spindle.future;

import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A future whose parallelism the runtime decides: {@code Spindle.future(body)} records the body
 * (or runs it there, see below) and returns; the caller's code continues; {@link #touch()}
 * returns the value.
 *
 * <p>A new future is <em>latent</em> — a plain entry on its creator's {@link LatentStack}, run
 * when it is touched, on the touching thread, as a method call — while its creator keeps only a
 * few latent futures; beyond those (log2 of the pool's parallelism, rounded up) and while nobody
 * asks for work, it <em>runs at its creation</em>, as the call it stands for, and its handle
 * holds the outcome. When other workers are hungry the creator promotes its oldest latent
 * futures into stealable tasks. Either way a future declares that its body may run concurrently with the code
 * that follows its creation, and every rule below holds whatever the runtime decided:
 * <ul>
 * <li>touching a future that has not started runs it on the touching thread;</li>
 * <li>touching a completed future returns its value, with a happens-before edge from everything
 * the body did;</li>
 * <li>touching a running future waits — on a worker by running other work;</li>
 * <li>a body that throws: every touch throws — an unchecked exception or Error as itself with a
 * {@link TouchSite} added as suppressed, a checked one wrapped in
 * {@link java.util.concurrent.CompletionException};</li>
 * <li>the body runs exactly once, however many threads touch;</li>
 * <li>touching a future from inside its own body throws {@link IllegalStateException};</li>
 * <li>{@link #cancel} before the body starts prevents it; touching a cancelled future throws
 * {@link CancellationException};</li>
 * <li>a failure nobody touches is handed to the pool's {@link UntouchedFailureHandler} when its
 * pool closes, or raised by its {@link Scope}.</li>
 * </ul>
 *
 * <pre>{@code
 * static long fib(int n) {
 *     if (n < 2) return n;
 *     LazyFuture<Long> a = Spindle.future(() -> fib(n - 1));   // no threshold anywhere
 *     long b = fib(n - 2);
 *     return a.touch() + b;
 * }
 * }</pre>
 *
 * <h2>Cost</h2>
 * A future run at its creation costs a few loads and compares and the call of the body; its
 * handle is created holding the outcome. The creator's stack records a latent future as (body,
 * number, {@link ExposedFutures} table), never the handle; the handle holds the same three and,
 * once known, the outcome. So creating and touching a future nobody promoted is a handful of
 * plain loads and stores on the creator's stack, plus the call of the body, and where the handle does not escape the method that creates and
 * touches it, C2's escape analysis removes it: such a future allocates only the caller's lambda,
 * and nothing at all where the future ran at its creation in code that never kept one latent
 * (a pool of one worker): the body then runs in the caller's compiled code, not in the stack.
 * A future that leaves the stack without its handle (promoted, or run outside a touch) is found
 * through the table by its number. A thread touching a future that is latent in <em>another</em>
 * thread's stack asks that owner to expose its futures and waits until the owner does, at its
 * next future, touch, join or task end: a thread that blocks outside Spindle (a lock, a queue)
 * while another thread needs one of its untouched futures delays that thread until it returns to
 * Spindle.
 *
 * <h2>Locks held while waiting</h2>
 * A promoted future runs on another worker. A body that needs a lock its creator holds while it
 * touches — a monitor, or the class initialization lock of a static initializer that creates
 * futures whose bodies use that class — makes the worker wait for the creator and the creator for
 * the worker, as with any thread pool ({@code ForkJoinPool} and parallel streams included). The
 * runtime cannot take back a body that has started; create such futures after the class is
 * initialized, or outside the lock. (The {@code @Future} weaver never defers a call made under a
 * monitor or in a static initializer.)
 *
 * <p>Handles are not unique: the untouched-failure handler receives a fresh handle on the failed
 * future (see {@link UntouchedFailureHandler}).
 *
 * @param <T> result type
 */
public class LazyFuture<T> implements Future<T> {
    /**
     * Every call of {@code CELL.setRelease} passes its value as {@code Object}: a VarHandle call
     * with a signature of its own, such as {@code (LongFuture, Outcome)}, is linked when it first
     * runs, and C2 compiles a call site not yet linked as a trap ("unloaded"). The latent touch's
     * store of {@code Outcome.IN_HANDLE} first runs in a pool of two workers, long after the touch
     * was compiled, and trapped 28 times in one JVM before it was recompiled (Fib; 0 with the
     * shared signature, {@code -Xlog:deoptimization=debug}).
     */
    static final VarHandle CELL;
    /** {@link #step}'s answers besides a final cell value. */
    private static final Object RUN_HERE = new Object();
    private static final Object TIMED_OUT = new Object();
    /** {@link #resolve}: an interruptible wait was interrupted (the status is cleared). */
    private static final Object INTERRUPTED = new Object();
    /**
     * The body of a handle whose outcome was known when it was made — a report's, or a future run
     * at its creation: never on a stack, so such a handle never pops an entry, and its cell is
     * final from the start.
     */
    static final Object NO_BODY = new Object();

    static {
        try {
            CELL = MethodHandles.lookup().findVarHandle(LazyFuture.class, "cell", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Where the owner records this future if it leaves the stack without this handle. */
    final ExposedFutures region;
    /** The future's number on its creator's stack. */
    final long number;
    /**
     * The body: a Supplier (a callable is wrapped in a {@link CallableBody}), a primitive supplier
     * of a {@link LongFuture} and its siblings, or a {@link TracedBody}; {@link #NO_BODY} in a
     * report's handle and in that of a future run at its creation.
     */
    final Object body;
    /**
     * The thread that created the future, its stack's owner, which the primitive touches test
     * first ({@code touchLong}). A primitive call-form future holds the
     * {@code Thread.currentThread()} its factory read, so that where the handle is scalar replaced
     * and touched in the compiled method that created it, C2 compares the thread with itself and
     * drops the test (PERFORMANCE.md, futures suite, "Sixteenth session").
     */
    final Thread owner;
    /**
     * Null: not settled through this handle (latent, promoted, or unknown). {@link Outcome#RUNNING}:
     * the owner runs the body inline through this handle. Otherwise final: the result itself, or
     * an {@link Outcome} (failure, cancellation, null, or a result that is an Outcome).
     */
    Object cell;

    LazyFuture(ExposedFutures region, long number, Object body) {
        this.region = region;
        this.number = number;
        this.body = body;
        this.owner = region.stack.owner;
    }

    /**
     * A handle of a primitive call form ({@code LongFuture.of(IntToLongFunction, int)} and its
     * siblings): what the factory decided, with the creating thread as the factory read it, so
     * that C2 folds the touch's ownership test on that thread (see {@link #owner}).
     */
    LazyFuture(ExposedFutures region, long number, Object body, Thread owner) {
        this.region = region;
        this.number = number;
        this.body = body;
        this.owner = owner;
    }

    /**
     * A handle holding the final outcome {@code cell} of a future run at its creation. It sets the
     * fields itself rather than through {@code this(region, number, body)}: one level of inlining
     * less on a path that a recursive body passes twice (see {@code Outcome.runAtCreation}).
     */
    private LazyFuture(ExposedFutures region, long number, Object body, Object cell) {
        this.region = region;
        this.number = number;
        this.body = body;
        this.owner = region.stack.owner;
        CELL.setRelease(this, cell);
    }

    /**
     * The handle of the future {@code s} just admitted as {@code number}, with its cell. The
     * factories call {@link LatentStack#admit} first and allocate after it returns, so that no
     * safepoint lies between the allocation and these stores and a handle that escapes needs no
     * GC barrier here; each factory stays small enough for C1 to inline (see
     * {@link LatentStack#admit}). A supplier's future run at its creation has an allocation site
     * of its own ({@link #ranAtCreation}); where both are compiled (two workers) they merge and
     * the handle is allocated, as the latent touch there allocates it anyway ({@link #touchLatent}).
     */
    private LazyFuture(LatentStack s, long number, Object cell) {
        this(s, number);
        CELL.setRelease(this, cell);
    }

    /**
     * The handle of the future {@code s} just admitted, less its cell: the region, number and body
     * {@link LatentStack#admit} left there. A primitive future stores its value, then its cell.
     */
    LazyFuture(LatentStack s, long number) {
        this.region = s.madeRegion;
        this.number = number;
        this.body = s.madeBody;
        this.owner = s.owner;
    }

    /**
     * The handle of a future a woven serial method made in place on thread {@code t}, the calling
     * thread ({@link SerialFutures}): of the body's {@code value}, or — {@code failed} not null —
     * of its failure's outcome. No table and no number ({@link LatentStack#MADE_IN_PLACE}): it was
     * never on a stack, and every path that would look it up reads the final cell first. Counting
     * the future is the caller's part.
     *
     * <p>A constructor, which C2 inlines at any call site, so that escape analysis removes it; and
     * the value is encoded here rather than by {@link Outcome#encode}: where C2 compiles a serial
     * method whose callees it has no call counts for (its tier-3 code skipped), it refuses every
     * small static method below the serial method's own calls ("low call site frequency") but
     * never a constructor (PERFORMANCE.md, futures suite, "Thirty-first session").
     */
    LazyFuture(Thread t, Object value, Outcome failed) {
        this.region = null;
        this.number = LatentStack.MADE_IN_PLACE;
        this.body = NO_BODY;
        this.owner = t;
        Object c = value;
        if (failed != null) {
            c = failed;
        } else if (value == null) {
            c = Outcome.NULL;
        } else if (value instanceof Outcome) {
            c = Outcome.encode(value);                     // a result that is itself a cell state
        }
        CELL.setRelease(this, c);
    }

    /** A handle on a future whose outcome is known, for reports. */
    static LazyFuture<?> view(ExposedFutures region, long number, Object outcome) {
        LazyFuture<?> f = new LazyFuture<>(region, number, NO_BODY);
        f.cell = outcome;
        return f;
    }

    /**
     * Creates a future on the calling thread's latent stack.
     *
     * @param body the body, a Supplier (a Callable is wrapped in a {@link CallableBody})
     * @param <T>  result type
     * @return the future
     */
    static <T> LazyFuture<T> create(Object body) {
        LatentStack s = LatentStack.current();
        return s.runsNow() ? ranAtCreation(s, body) : admitted(s, body);
    }

    /**
     * {@link #create} of a future run at its creation, in the caller's compiled code: this method
     * and {@link Outcome#runAtCreation} are within {@code MaxInlineSize}, so C2 inlines them and
     * the body's call at any call site, and where the latent path ({@link #admitted}) has never
     * run — a pool of one worker — it is an uncommon trap and escape analysis removes the caller's
     * lambda with the handle.
     */
    private static <T> LazyFuture<T> ranAtCreation(LatentStack s, Object body) {
        ExposedFutures r = s.currentRegion();
        long k = s.nextNumber();
        Object c = Outcome.runAtCreation(s, r, k, body);
        return new LazyFuture<>(r, k, NO_BODY, c);
    }

    /** {@link #create} of a future the stack may keep latent: {@link LatentStack#admit} decides again. */
    private static <T> LazyFuture<T> admitted(LatentStack s, Object body) {
        long k = s.admit(body, null, 0, LatentStack.OBJECT);
        return new LazyFuture<>(s, k, s.madeCell);
    }

    /**
     * Creates a future of {@code fn} applied to {@code arg}: the call form, which allocates
     * nothing for a future that runs at its creation when {@code fn} captures nothing (see
     * {@link FunctionCall}).
     *
     * @param fn  the function
     * @param arg its argument, evaluated now
     * @param <A> argument type
     * @param <T> result type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A, T> LazyFuture<T> of(Function<? super A, ? extends T> fn, A arg) {
        Objects.requireNonNull(fn, "fn");
        LatentStack s = LatentStack.current();
        long k = s.admit(fn, arg, 0, FunctionCall.OBJECT_OF_REF);
        return new LazyFuture<>(s, k, s.madeCell);
    }

    /**
     * Creates a future of a supplier.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static <T> LazyFuture<T> of(Supplier<? extends T> body) {
        return create(Objects.requireNonNull(body, "body"));
    }

    /**
     * Creates a future of a callable, whose checked exceptions a touch delivers wrapped in
     * {@link java.util.concurrent.CompletionException}.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static <T> LazyFuture<T> ofCallable(Callable<? extends T> body) {
        return create(new CallableBody<>(Objects.requireNonNull(body, "body")));
    }

    // ------------------------------------------------------------------ touch

    /**
     * Returns the value: runs the body here if it has not started, waits for it if it is running.
     *
     * <p>This method is the fast path only — a future whose outcome its handle already holds from
     * its creation — and is kept within C2's {@code MaxInlineSize} (35 bytes of bytecode), so that
     * C2 inlines it at <em>every</em> call site. A bigger touch is inlined only where its call
     * site runs in at least a quarter of its method's invocations ({@code InlineFrequencyRatio});
     * elsewhere — Knapsack's touch, reached only on the branch where the item fits, in under a
     * quarter of the calls — the handle was passed to a call, so escape analysis could not
     * remove it, and was read again after the whole subtree had run (PERFORMANCE.md, futures
     * suite, "A touch small enough to inline everywhere"). Every other case is
     * {@link #touchLatent()}, which C2 compiles as a trap where no such future is touched.
     *
     * <p>A handle made with its outcome is final from its construction (a release store, read
     * here with acquire), so a thread other than the creator may take this path too.
     * {@link LongFuture} and its siblings override this method to box their value.
     *
     * @return the value
     * @throws CancellationException if the future was cancelled
     * @throws java.util.concurrent.CompletionException wrapping a checked exception of the body
     * @throws IllegalStateException if called from inside this future's own body
     */
    @SuppressWarnings("unchecked")
    public T touch() {
        Object c = CELL.getAcquire(this);
        if (c == null || body != NO_BODY) {
            return touchLatent();
        }
        return (T) Outcome.report(c);
    }

    /**
     * {@link #touch()} of a future its handle does not hold the outcome of: latent, promoted,
     * running, or touched before through this handle.
     *
     * <p>Everything but the handle's own fields is done by the stack and the table, which are
     * never given the handle, and every method here that has the handle is within C2's
     * {@code MaxInlineSize}, as {@link #touch()} is, so that wherever C2 inlines this method the
     * whole chain follows and the handle stays removable by escape analysis. C2 does not inline it
     * where latent touches are under 0.85% of all touches ({@code MinInlineFrequencyRatio}, "low
     * call site frequency") — at two workers, typically — and there the handle is allocated.
     * Only {@link #touchShared()} takes the
     * handle, and only a handle touched again or by a thread other than its creator goes there;
     * its test runs on every latent touch, so where no handle is shared C2's profile says "never
     * taken" and compiles a deoptimization trap instead of the call. {@link LongFuture#touchLong()}
     * and its siblings repeat this with their primitive call of the body, for the same reason: a
     * helper shared by all four would have to be given the handle.
     */
    @SuppressWarnings("unchecked")
    T touchLatent() {
        if (cell != null || owner != Thread.currentThread()) {
            return touchShared();                          // touched again, running, or not the owner
        }
        return (T) Outcome.report(touchOwned());
    }

    /** The owner's touch of a future not yet settled through this handle: its outcome, cached here. */
    private Object touchOwned() {
        return region.popTop(body, number) ? runPopped() : settleOwned();
    }

    /** The owner popped this future off its stack: runs it here, marked running (a self-touch is refused). */
    private Object runPopped() {
        cell = Outcome.RUNNING;
        return cache(Outcome.runTouched(body));
    }

    /** The owner's future left the stack without this handle: settled through the table, then forgotten there. */
    private Object settleOwned() {
        ExposedFutures r = region;
        long k = number;
        Object c = cache(r.settleOwned(k, body));         // before forgetting: another toucher finds one or the other
        r.forget(k);
        return c;
    }

    /** Stores the final outcome {@code c} in the cell, with release, and returns it. */
    private Object cache(Object c) {
        CELL.setRelease(this, c);
        return c;
    }

    /** The general path: a handle touched again, from inside its body, or by another thread. */
    @SuppressWarnings("unchecked")
    final T touchShared() {
        return (T) Outcome.report(resolve(LatentStack.current(), 0L));
    }

    /** Runs the body here, already removed from the stack; returns the outcome stored in the cell. */
    private Object runHere() {
        cell = Outcome.RUNNING;
        Object c = Outcome.run(body);
        CELL.setRelease(this, c);
        return c;
    }

    /** {@link #resolve(LatentStack, long, boolean)}, uninterruptible. */
    final Object resolve(LatentStack s, long deadline) {
        return resolve(s, deadline, false);
    }

    /**
     * Drives the future to its final state and returns the cell: runs it here if it is latent in
     * this thread's stack, claims or waits for its promoted task, waits for an inline run on
     * another thread, or asks the owner of a latent future to expose it.
     *
     * <p>Interrupts: an interruptible wait ({@link #get()} on a thread that is not a worker, and
     * {@link #get(long, TimeUnit)}) ends with {@link #INTERRUPTED} when the thread is interrupted
     * while it waits. Any other wait goes on; it clears the status so that its parking blocks,
     * and sets it again when it returns, so the caller still sees the interrupt. A body run here
     * without a wait before it runs with the status as the caller left it; one run here after a
     * wait (a future taken back from a stack whose owner exposed it) runs with it cleared.
     *
     * @param deadline      System.nanoTime() deadline, or 0 for none
     * @param interruptible whether an interrupt ends the wait
     * @return the final cell value, null if the deadline passed, or {@link #INTERRUPTED}
     */
    final Object resolve(LatentStack s, long deadline, boolean interruptible) {
        boolean interrupted = false;
        try {
            for (int round = 0; ; round++) {
                Object c = CELL.getAcquire(this);
                if (!Outcome.isFinal(c)) {
                    c = step(region, number, body, s, c, round, deadline, interruptible);
                    if (c == RUN_HERE) {
                        return runHere();
                    }
                    if (c == TIMED_OUT) {
                        return null;
                    }
                    if (c == INTERRUPTED) {
                        return INTERRUPTED;
                    }
                    if (c == null) {
                        if (Thread.interrupted()) {           // set, it would keep parkNanos from blocking
                            if (interruptible) {
                                return INTERRUPTED;
                            }
                            interrupted = true;
                        }
                        continue;
                    }
                    CELL.setRelease(this, c);
                    if (region.stack == s) {
                        region.forget(number);            // only the owner drops entries: its touch relies on them
                    }
                }
                return c == Outcome.IN_HANDLE ? valueInHandle() : c;
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * A primitive future run at its creation: its value, boxed (see {@link Outcome#IN_HANDLE}).
     *
     * @return the boxed value
     */
    Object valueInHandle() {
        throw new IllegalStateException("not a primitive future: " + this);
    }

    /**
     * One round of {@link #resolve} for a future whose handle holds no final outcome ({@code c}
     * null or the running marker): the outcome from its exposed task, {@link #RUN_HERE} if this
     * thread removed it from its own stack, {@link #TIMED_OUT}, or null to re-read the cell.
     */
    private static Object step(ExposedFutures region, long number, Object body, LatentStack s, Object c,
            int round, long deadline, boolean interruptible) {
        if (c == Outcome.RUNNING || region.stack == s && s.isRunning(number)) {   // only the owner runs a future inline
            if (region.stack == s) {
                throw new IllegalStateException("future touched from inside its own body: " + describe(region, number));
            }
        } else {
            PromotedFuture p = region.get(number);
            if (p != null) {
                return awaitPromoted(p, deadline, interruptible);
            }
            if (region.stack == s) {
                if (s.removeFuture(body, number)) {
                    return RUN_HERE;                  // out of order
                }
                return null;                          // settled through the handle meanwhile: re-read
            }
            if ((round & 63) == 0) {
                region.stack.requestAllHere();
                region.stack.adoptIfOrphaned();       // its thread ended: nobody else will expose it
            }
        }
        if (deadline != 0L && System.nanoTime() - deadline >= 0L) {
            return TIMED_OUT;
        }
        pause(s, round);
        return null;
    }

    static Object awaitPromoted(PromotedFuture p, long deadline, boolean interruptible) {
        if (deadline == 0L) {
            if (!interruptible || Thread.currentThread() instanceof Worker) {
                p.runOrAwait();                        // a worker helps while it waits, uninterruptibly
                return p.outcome();
            }
            if (p.runIfUnclaimed()) {
                return p.outcome();
            }
        }
        try {
            if (deadline == 0L) {
                p.get();
            } else {
                p.get(Math.max(1L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException e) {
            return TIMED_OUT;
        } catch (InterruptedException e) {
            if (interruptible) {
                return INTERRUPTED;
            }
            Thread.currentThread().interrupt();
            return TIMED_OUT;
        } catch (ExecutionException | CancellationException e) {
            // the outcome says which
        }
        return p.outcome();
    }

    private static String describe(ExposedFutures region, long number) {
        return "future #" + number + " of " + region.stack;
    }

    /**
     * One step of waiting for a future another thread runs inline (or holds latent): serve
     * requests, spin, yield, then sleep briefly. No helping with other work: it could be a future
     * that waits for a frame below this one (see {@code Worker.awaitFuture}).
     */
    private static void pause(LatentStack s, int round) {
        s.serviceIfRequested();
        if (round < 32) {
            Thread.onSpinWait();
            return;
        }
        if (round < 64) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 10_000L << Math.min(7, (round - 64) >> 4)));
        }
    }

    // ------------------------------------------------------------------ Future

    /**
     * Like {@link #touch()}, but with {@link Future}'s exceptions.
     *
     * @return the value
     * @throws ExecutionException if the body threw
     * @throws InterruptedException if interrupted before the wait began, or, on a thread that is
     *         not a worker, while waiting (a worker helps while it waits and, as in
     *         {@code ForkJoinTask.get}, is not interrupted; its status is kept)
     */
    @Override
    @SuppressWarnings("unchecked")
    public final T get() throws InterruptedException, ExecutionException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        Object c = resolve(LatentStack.current(), 0L, !(Thread.currentThread() instanceof Worker));
        if (c == INTERRUPTED) {
            throw new InterruptedException("interrupted while waiting for " + this);
        }
        return (T) reportGet(c);
    }

    @Override
    @SuppressWarnings("unchecked")
    public final T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = Objects.requireNonNull(unit, "unit").toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = System.nanoTime() + Math.max(1L, nanos);
        if (deadline == 0L) {
            deadline = 1L;
        }
        Object c = resolve(LatentStack.current(), deadline, true);
        if (c == INTERRUPTED) {
            throw new InterruptedException("interrupted while waiting for " + this);
        }
        if (c == null) {
            throw new TimeoutException("future not done after " + timeout + " " + unit + ": " + this);
        }
        return (T) reportGet(c);
    }

    private static Object reportGet(Object c) throws ExecutionException {
        if (c instanceof Outcome o) {
            if (o == Outcome.CANCELLED) {
                throw new CancellationException("future was cancelled");
            }
            if (o.failure != null) {
                o.observed = true;
                throw new ExecutionException(o.failure);
            }
            return o.value;
        }
        return c;
    }

    /**
     * Cancels the future if its body has not started. A future latent in another thread's stack
     * is first exposed by its owner (this call waits for that).
     *
     * @param mayInterruptIfRunning ignored: a started body is never interrupted
     * @return true if this call cancelled the future
     */
    @Override
    public final boolean cancel(boolean mayInterruptIfRunning) {
        LatentStack s = LatentStack.current();
        for (int round = 0; ; round++) {
            if (CELL.getAcquire(this) != null) {
                return false;                              // running or done
            }
            PromotedFuture p = region.get(number);
            if (p != null) {
                return p.cancel(mayInterruptIfRunning);
            }
            if (region.stack == s) {
                if (s.removeFuture(body, number)) {
                    s.cancelled++;
                    CELL.setRelease(this, (Object) Outcome.CANCELLED);
                    return true;
                }
                if (s.isRunning(number)) {
                    return false;                          // its body, run out of order, cancels it
                }
                continue;                                  // settled meanwhile: re-read
            }
            if ((round & 63) == 0) {
                region.stack.requestAllHere();
                region.stack.adoptIfOrphaned();       // its thread ended: nobody else will expose it
            }
            pause(s, round);
        }
    }

    @Override
    public final boolean isCancelled() {
        return knownCell() == Outcome.CANCELLED;
    }

    @Override
    public final boolean isDone() {
        return Outcome.isFinal(knownCell());
    }

    /** The cell, or the outcome of the exposed task if the cell holds nothing yet. */
    private Object knownCell() {
        Object c = CELL.getAcquire(this);
        if (c == null) {
            PromotedFuture p = region.get(number);
            if (p != null) {
                c = p.outcome();
            }
            if (c == null) {
                c = CELL.getAcquire(this);             // cached by a touch that then dropped the entry
            }
        }
        return c;
    }

    @Override
    public String toString() {
        Object c = knownCell();
        String st;
        if (c == null) {
            st = region.get(number) != null ? "promoted" : "latent";
        } else if (c == Outcome.RUNNING) {
            st = "running";
        } else if (c == Outcome.CANCELLED) {
            st = "cancelled";
        } else if (c instanceof Outcome o && o.failure != null) {
            st = "failed: " + o.failure;
        } else {
            st = "completed";
        }
        return "LazyFuture" + (number == LatentStack.MADE_IN_PLACE ? "" : "#" + number) + "[" + st + "]";
    }
}
