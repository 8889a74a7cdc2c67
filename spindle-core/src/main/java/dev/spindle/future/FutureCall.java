package dev.spindle.future;

import dev.spindle.runtime.IntProperty;
import dev.spindle.runtime.Worker;

import java.util.Arrays;

/**
 * One potential future of woven code ({@code @Future T x = call(args);}) that the runtime chose to
 * defer: the call's receiver and arguments, and later its result. The static methods are the
 * interface between woven code and the runtime; the weaver's documentation in
 * {@code docs/ARCHITECTURE.md} §10 shows the code it emits around them.
 *
 * <h2>The spawn decision</h2>
 * At each declaration the woven code evaluates the receiver and arguments into locals and asks
 * {@link #begin}. Mostly the answer is "run it here and now": the call is made at once, as in the
 * serial program, and nothing is allocated or recorded — only its failure, if any, is kept for
 * the first read. The runtime defers the call only near the top of the current task's recursion
 * — while fewer than 2 + log2(P) frames on the current call path deferred a call and still wait
 * for it (a count on the worker, one load from the current thread; never in a pool of one
 * worker) — or when a hungry worker asked for work and none is latent to give (a hint on the
 * worker, one more load). Then the
 * woven code fills a record — taken from a per-thread free list, so steady state allocates
 * nothing — and {@link #submit}s it onto the thread's {@link LatentStack}. The records are the
 * outermost calls of the recursion, the largest pieces of work; when another worker is hungry
 * the owner promotes the oldest one into a task ({@link PromotedCall}, the only allocation) —
 * also, unasked, when it defers a call while a worker of the pool is parked (a parked worker asks
 * no more, see {@code LatentStack.pushDeferred}). Spawn=always defers and promotes every call;
 * spawn=never runs every call at its declaration.
 *
 * <h2>The first read</h2>
 * {@link #touchLong} / {@link #touchRef} pop a record still latent on the owner's stack (or claim
 * a promoted one nobody started) and make the call here through its body; otherwise another
 * worker runs it and they wait for it (on a worker, helping only with that call's own
 * computation). Either way they return the result or throw the failure as itself. Only the owner thread ever touches its records, so none of this needs a lock; the one
 * race — owner and thief both wanting a promoted call — is settled by the task's claim. A read
 * that pops the last record a hungry worker could have been given lends its frame's room to the
 * call, so that the call's first levels defer again ({@code LatentStack.lendRoomForRead}).
 *
 * <h2>Exits</h2>
 * {@link #settle} finishes an outstanding call whose value will not be read (reassignment, end of
 * the variable's scope, method exit) and accumulates its failure; {@link #throwIfFailed} raises it
 * at the method's normal exit, {@link #merge} attaches it to an exception leaving the method.
 */
public final class FutureCall extends Latent {
    /**
     * How deep a thread that is not a worker defers calls (a worker's depth depends on its pool:
     * {@code -Dspindle.directive.depth}, default 2 + log2(parallelism), 0 for one worker).
     */
    static final int EXTERNAL_DEPTH = IntProperty.nonNegative(Worker.DEFER_DEPTH_PROPERTY, 3);
    /** Calls made at their declaration between two looks at the request flag. */
    private static final int REQUEST_POLL = 63;

    final LatentStack stack;
    FutureCallBody body;
    private long[] prims = new long[4];
    private Object[] refs = new Object[4];
    private int refCount;
    private long bits;
    private Object value;
    private Throwable failure;
    /** Set by the owner when it promotes this call; read only by the owner. */
    private PromotedCall task;
    /** Set by the owner when it ran the call outside a read (NEVER mode, end of a region). */
    private boolean detached;
    /** Set by the owner when it finished the call before its read ({@link #finishBeforeLock}). */
    private boolean finished;
    /** With {@link #finished}: whether another thread ran the call. */
    private boolean ranElsewhere;

    FutureCall(LatentStack stack) {
        this.stack = stack;
    }

    // ------------------------------------------------------------------ declaration

    /**
     * Woven code, at a declaration, after evaluating the receiver and arguments: null to make the
     * call here and now, or a record (typed Object so woven frames never merge runtime types) to fill with {@link #putLong} / {@link #putRef} and
     * {@link #submit}.
     *
     * @param body the call site's body
     * @return a record, or null
     */
    public static Object begin(FutureCallBody body) {
        if (LatentStack.MODE == SpawnMode.NEVER) {
            return null;
        }
        if (Thread.currentThread() instanceof Worker w) {
            if (LatentStack.MODE == SpawnMode.AUTO && !w.hasRoomToDefer()
                    && !(w.requestHinted() && hungryAndNothingToGive(w))) {
                return null;
            }
            return w.latentStack().takeCall(body);
        }
        return beginExternal(body);
    }

    /**
     * Woven code, at the entry of a method with {@code @Future} variables: true if this frame
     * could defer a call — a worker with room to defer or a hint that someone asked for work, any
     * thread under spawn=always, every thread that is not a worker (it decides per call, as
     * {@link #begin} does) — and so should run the method's deferring copy; false to run the
     * copy that makes every call at its declaration. The same loads as {@link #begin}'s common
     * case; no store.
     *
     * @return whether to run the deferring copy
     */
    public static boolean mayDefer() {
        if (LatentStack.MODE == SpawnMode.NEVER) {
            return false;
        }
        if (Thread.currentThread() instanceof Worker w) {
            return LatentStack.MODE == SpawnMode.ALWAYS || w.hasRoomToDefer() || w.requestHinted();
        }
        return true;
    }

    /**
     * Woven code, in a serial method just past its prologue: the worker this frame runs on, which
     * the method passes to its serial calls of woven methods of its class (their worker variants,
     * whose prologue is {@link #mayDeferOn}); null on a thread that is not a worker.
     *
     * @return the current worker, or null
     */
    public static Worker serialWorker() {
        return Thread.currentThread() instanceof Worker w ? w : null;
    }

    /**
     * Woven code, at the entry of a serial method's worker variant — a frame called from a
     * serial frame on {@code w}: true if this frame should run the deferring copy. Below a serial
     * frame the room to defer cannot have grown, so only the request hint is read, plain (see
     * {@link Worker#mayKeepLatent} for why plain); deferring is never needed for a result, so a
     * frame that misses a chance is slower at worst. A null worker (a frame reached before its
     * caller's prologue found one) asks as {@link #mayDefer} does.
     *
     * @param w the worker the calling frame runs on, or null
     * @return whether to run the deferring copy
     */
    public static boolean mayDeferOn(Worker w) {
        if (LatentStack.MODE == SpawnMode.NEVER) {
            return false;
        }
        if (w == null) {
            return mayDefer();
        }
        return LatentStack.MODE == SpawnMode.ALWAYS || w.requestHintedPlain();
    }

    /**
     * A worker deep in its recursion (nothing more to defer by depth), hinted that someone asked
     * for work: it gives its oldest latent call; if it has none to give, it defers this call so
     * that the next request finds work.
     */
    private static boolean hungryAndNothingToGive(Worker w) {
        LatentStack s = w.latentStack();
        if (!s.requestBehindHint()) {
            return false;                            // a stale hint, now cleared
        }
        boolean empty = s.nothingToGive();
        s.serviceIfRequested();
        return empty;
    }

    /** A thread that is not a worker: the same decision, offering its oldest call to idle workers. */
    private static Object beginExternal(FutureCallBody body) {
        LatentStack s = LatentStack.current();
        if (LatentStack.MODE == SpawnMode.AUTO && s.externalDeferred() >= EXTERNAL_DEPTH) {
            if (!s.pollExternal(REQUEST_POLL)) {
                return null;
            }
            boolean empty = s.nothingToGive();
            s.offerWork();
            if (!empty) {
                return null;
            }
        }
        return s.takeCall(body);
    }

    /**
     * Woven code: records argument {@code i} of the primitive kind (int-like, long, float and
     * double widened or converted to their raw bits).
     *
     * @param i     index among the call's primitive arguments
     * @param value the bits
     */
    public void putLong(int i, long value) {
        long[] p = prims;
        if (i >= p.length) {
            prims = p = Arrays.copyOf(p, Math.max(i + 1, p.length * 2));
        }
        p[i] = value;
    }

    /**
     * Woven code: records reference argument {@code i} (the receiver first, if any).
     *
     * @param i     index among the call's reference arguments
     * @param value the reference
     */
    public void putRef(int i, Object value) {
        Object[] r = refs;
        if (i >= r.length) {
            refs = r = Arrays.copyOf(r, Math.max(i + 1, r.length * 2));
        }
        r[i] = value;
        if (i >= refCount) {
            refCount = i + 1;
        }
    }

    /** Woven code: makes the filled record latent on the owner's stack (from where it may be promoted). */
    public void submit() {
        stack.callDeferred();
        stack.pushDeferred(this);
    }

    // ------------------------------------------------------------------ the body's side

    /**
     * The body: primitive argument {@code i}.
     *
     * @param i index
     * @return the bits
     */
    public long argLong(int i) {
        return prims[i];
    }

    /**
     * The body: reference argument {@code i}.
     *
     * @param i index
     * @return the reference
     */
    public Object argRef(int i) {
        return refs[i];
    }

    /**
     * The body: the call's primitive result, as bits.
     *
     * @param bits the result
     */
    public void resultLong(long bits) {
        this.bits = bits;
    }

    /**
     * The body: the call's reference result.
     *
     * @param value the result
     */
    public void resultRef(Object value) {
        this.value = value;
    }

    void runBody() {
        try {
            body.run(this);
        } catch (Throwable ex) {
            failure = ex;
        }
    }

    // ------------------------------------------------------------------ first read

    /**
     * Woven code, at the first read of a variable whose call is outstanding: the primitive
     * result's bits. A call still latent (or promoted and not started) is made here; one another
     * thread runs is waited for; a failure — kept from a call made at its declaration, or thrown
     * by the call now — is thrown as the original exception.
     *
     * @param handle the variable's handle: a record or a kept Throwable
     * @return the bits
     */
    public static long touchLong(Object handle) {
        FutureCall c = complete(handle);
        long v = c.bits;
        c.release();
        return v;
    }

    /**
     * Woven code: like {@link #touchLong} for a reference result.
     *
     * @param handle the variable's handle: a record or a kept Throwable
     * @return the result
     */
    public static Object touchRef(Object handle) {
        FutureCall c = complete(handle);
        Object v = c.value;
        c.release();
        return v;
    }

    /** Owner, after reading the result: recycles the record, then throws the call's failure if any. */
    private void release() {
        Throwable f = failure;
        stack.recycle(this);
        if (f != null) {
            throw Outcome.sneaky(f);
        }
    }

    private static FutureCall complete(Object handle) {
        if (handle instanceof FutureCall c) {
            LatentStack s = c.stack;
            Object[] a = s.slots;
            int t = s.top - 1;
            if (a[t] == c) {                              // latent on top: the common case
                a[t] = null;
                s.moveTop(t);
                if (s.lendRoomForRead()) {                  // the last givable call: it may defer again
                    try {
                        c.runBody();
                    } finally {
                        s.endLentRead();
                    }
                    return c;
                }
                c.runBody();
            } else if (c.completeSlow() && c.failure != null) {
                Outcome.addTouchSite(c.failure);            // thrown on another thread: say where it was read
            }
            s.callConsumed();
            return c;
        }
        throw Outcome.sneaky((Throwable) handle);
    }

    /**
     * Woven code, before a {@code monitorenter} or a {@code java.util.concurrent.locks} lock
     * acquisition while the variable's call is outstanding: finishes the call — makes it here if
     * nobody started it, else waits for it — and keeps its result and failure for the read, which
     * finds them as it would have. A thread running the call could need the lock the method is
     * about to take, and the method would wait for the call while holding it: the serial program
     * has no such wait.
     *
     * @param handle the variable's handle: a record or a kept Throwable
     */
    public static void finishBeforeLock(Object handle) {
        if (handle instanceof FutureCall c && !c.finished) {
            c.ranElsewhere = c.completeSlow();             // latent anywhere on the stack (top included), promoted, or run
            c.finished = true;
        }
    }

    /**
     * Owner: the call is not on top of the stack: latent below, promoted, or run already.
     *
     * @return true if another thread ran the call (its failure, if any, carries that thread's
     *         stack, so the read adds a {@link TouchSite}); false if the call ran here — now, or
     *         at its declaration
     */
    private boolean completeSlow() {
        if (finished) {
            return ranElsewhere;
        }
        PromotedCall p = task;
        if (p == null && !detached) {
            if (!stack.remove(this)) {
                throw new IllegalStateException("woven future neither latent, promoted nor run: " + this);
            }
            runBody();
            return false;
        } else if (p != null && p.tryClaim()) {
            runBody();
            return false;
        } else {
            await();
            return p != null;
        }
    }

    /** Owner: waits until the thread that claimed the promoted call finished it. */
    private void await() {
        PromotedCall p = task;
        if (p == null || p.isDone()) {
            return;
        }
        if (Thread.currentThread() instanceof Worker w && w.pool() == stack.pool) {
            w.awaitFuture(p);
        } else {
            p.quietlyJoin();
        }
    }

    // ------------------------------------------------------------------ exits

    /**
     * Woven code: finishes an outstanding call whose value is not going to be read (the variable
     * is assigned again, its scope ends, or the method exits) — running it here if nobody started
     * it — and folds its failure into {@code pending}.
     *
     * @param pending the failures kept so far, or null
     * @param handle  the variable's handle (a record, a Throwable, or null)
     * @return the failures kept now, or null
     */
    public static Throwable settle(Throwable pending, Object handle) {
        if (handle == null) {
            return pending;
        }
        Throwable f = handle instanceof FutureCall c ? c.finish() : (Throwable) handle;
        return merge(pending, f);
    }

    private Throwable finish() {
        completeSlow();
        stack.callConsumed();
        Throwable f = failure;
        stack.recycle(this);
        return f;
    }

    /**
     * Woven code: {@code primary} with {@code other} attached as suppressed (if distinct); either
     * may be null.
     *
     * @param primary the exception that wins
     * @param other   another failure
     * @return the winner, or null if both are null
     */
    public static Throwable merge(Throwable primary, Throwable other) {
        if (other == null || other == primary) {
            return primary;
        }
        if (primary == null) {
            return other;
        }
        primary.addSuppressed(other);
        return primary;
    }

    /**
     * Woven code, at a normal exit: throws the kept failure of a call whose value was never read.
     *
     * @param pending from {@link #settle}, or null
     */
    public static void throwIfFailed(Throwable pending) {
        if (pending != null) {
            throw Outcome.sneaky(pending);
        }
    }

    // ------------------------------------------------------------------ Latent

    @Override
    ClaimableTask promote(LatentStack s) {
        PromotedCall p = new PromotedCall(this);
        task = p;
        return p;
    }

    @Override
    void runDetached(LatentStack s) {
        runBody();
        detached = true;
    }

    /** Owner: forgets everything for reuse (drops references so nothing stays reachable). */
    void clear() {
        Arrays.fill(refs, 0, refCount, null);
        refCount = 0;
        value = null;
        failure = null;
        task = null;
        detached = false;
        finished = false;
        ranElsewhere = false;
        body = null;
    }

    @Override
    public String toString() {
        return "FutureCall[" + (task != null ? "promoted" : detached ? "ran" : "latent") + ", body=" + body + "]";
    }
}
