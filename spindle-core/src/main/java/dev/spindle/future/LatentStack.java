package dev.spindle.future;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * The latent futures of one thread: futures created but not started and not exposed to anyone,
 * kept as plain references in a thread-private array, newest on top.
 *
 * <h2>Implementation overview</h2>
 * {@code Spindle.future(body)} pushes the body here under a number unique on this stack and returns
 * a {@link LazyFuture} handle holding (table, number, body); the caller's continuation runs first.
 * {@link LazyFuture#touch()} pops the body if it is still on top of its owner's stack with the
 * handle's number and runs it inline. Both are plain loads and stores on the owner's fields: no
 * lock, CAS or fence, and since the stack never holds the handle, escape analysis can remove it.
 *
 * <p>Only a few futures are pushed: while the stack already keeps {@code keep} latent futures
 * above its floor (log2 P rounded up: one at two workers, none at one) and nobody asked for
 * work, a new future of the object API runs at its creation instead ({@link #runsNow}) — the
 * serial order, a method call's cost, and nothing a hungry worker would have been given, since
 * it is only ever given the oldest.
 *
 * <p>A latent future becomes visible to other threads only by <em>promotion</em>, which only the
 * owner performs: it wraps the entry in a {@link PromotedFuture} task, records the task in the
 * future's {@link ExposedFutures} table under its number (a concurrent map that publishes it
 * safely), and pushes the task on the owner's work-stealing deque (from a thread that is not a
 * worker, into the pool's submission queue). Because only the owner removes entries — by pop,
 * out-of-order removal or promotion — the owner's plain accesses never race.
 *
 * <p>Other threads influence the stack only through the {@code requested} flag:
 * <ul>
 * <li>a thief that finds a victim's deque empty sets {@link #ONE} on the victim's stack, and a
 * worker about to park sets it on every stack of its pool: "someone is hungry";</li>
 * <li>a thread touching (or cancelling) a future that is latent in another thread's stack sets
 * {@link #ALL} on every stack: "expose everything, someone waits for one of them".</li>
 * </ul>
 * The owner reads the flag with an opaque load (a plain load on x86, but never hoisted out of a
 * loop) after every push, in every wait, and after every task; when set it clears it with one
 * atomic exchange — the only atomic instruction on the owner's side, and only when another thread
 * asked. On {@code ONE} it promotes the <em>oldest</em> latent future (the largest piece of a
 * divide-and-conquer computation), unless its deque already offers stealable work; on
 * {@code ALL}, every latent future.
 *
 * <h2>Regions</h2>
 * A worker marks the stack before running each task and, when the task returns or throws,
 * exposes the futures the task created and left latent (fire-and-forget futures, or futures
 * abandoned by an exception), so nothing is lost and nothing waits for a frame that is gone.
 * A mark is (epoch, top); any operation that moves positions bumps the epoch, and a stale mark
 * conservatively exposes everything.
 *
 * <h2>The floor: what a worker's deque may receive</h2>
 * While a worker runs a stolen task, touchers of that task on other workers help with the work
 * its computation creates, and nothing else (see {@code Worker.awaitFuture} for why: helping
 * with arbitrary work can deadlock futures). So the stack records a <em>floor</em> when the
 * worker starts a stolen task: futures at or above it were created inside that task; those
 * below belong to the frames the task runs on top of. A request ("someone is hungry") promotes
 * the oldest future above the floor onto the deque; a future below the floor that must be
 * exposed anyway (everything-requests, the end of a region) goes to the pool's submission queue,
 * where only workers looking for new work take it.
 *
 * <h2>Modes</h2>
 * {@link SpawnMode#ALWAYS} promotes each future as it is pushed (a fork); {@link SpawnMode#NEVER}
 * never promotes by choice: where AUTO would promote, it runs the futures inline instead.
 */
public final class LatentStack extends LatentStackRequest {
    static final int NONE = 0;
    static final int ONE = 1;
    static final int ALL = 2;

    static final SpawnMode MODE = SpawnMode.MODE;
    /** {@link #admit} kinds: a Supplier (a callable wrapped in a {@link CallableBody}); a LongSupplier; an IntSupplier; a DoubleSupplier. */
    static final int OBJECT = 0;
    static final int LONG = 1;
    static final int INT = 2;
    static final int DOUBLE = 3;
    /**
     * Or'ed into a call-form kind by a factory that decided itself that the future runs now and
     * numbered it: {@link #admit} only applies the function and returns the value's raw bits, and
     * a failure propagates to the factory (see {@code LongFuture.of(IntToLongFunction, int)}).
     */
    static final int APPLY = 16;
    /**
     * Or'ed into a call-form kind by a handle's constructor that found {@link #runsNow} false: pushes
     * the future latent without deciding again and returns its number (see {@link #pushCall}).
     */
    static final int LATENT = 32;
    /**
     * {@code -Dspindle.debug.checks=true}: {@link #admit} checks the stack's invariants at every
     * future's creation (spindle-core's tests run with it). Off by default, when the JIT removes the checks.
     */
    static final boolean CHECKS = Boolean.getBoolean("spindle.debug.checks");
    private static final int MAX_SPARE_CALLS = 1024;
    /** Futures between two renewals of the slot array ({@link #renewSlots}): at most 64K. */
    private static final long RENEW_MASK = (1L << 16) - 1;
    /** {@code -Dspindle.debug.promotions=true}: log each promotion with the future's creation site. */
    static final boolean TRACE = Boolean.getBoolean("spindle.debug.promotions");
    private static final System.Logger LOG = System.getLogger("dev.spindle.future");

    private static final VarHandle REQUESTED;

    static {
        try {
            REQUESTED = MethodHandles.lookup().findVarHandle(LatentStackRequest.class, "requested", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Stacks of threads that are not workers (they promote into the default pool), held until
     * their thread has ended and they hold nothing latent ({@link #pruneLocked}). Guarded by
     * itself. Until 2026-11-27 this was a weak set: a thread that ended with latent futures left
     * them unrun (a later touch of one waited for good for an owner that would never expose it),
     * and the counters of ended threads dropped out of the pool's statistics.
     */
    private static final Set<LatentStack> EXTERNAL_STACKS = new HashSet<>();
    /** {@link #EXTERNAL_STACKS}'s size, for a look without the lock. */
    private static volatile int externalStacks;
    /** Counters of pruned stacks (created, inline, promoted, stolen); guarded by EXTERNAL_STACKS. */
    private static final long[] RETIRED_COUNTS = new long[4];
    /** Guarded by EXTERNAL_STACKS: the size at which a registration prunes; when requestExternal last did. */
    private static int pruneAtSize = 64;
    private static long lastPruneNanos;
    private static final long PRUNE_INTERVAL_NANOS = 10_000_000L;
    private static final ThreadLocal<LatentStack> EXTERNAL = ThreadLocal.withInitial(() -> {
        LatentStack s = new LatentStack(null, SpindlePool.defaultPool(), Thread.currentThread());
        register(s);
        return s;
    });

    private static void register(LatentStack s) {
        List<LatentStack> orphans;
        synchronized (EXTERNAL_STACKS) {
            EXTERNAL_STACKS.add(s);
            externalStacks = EXTERNAL_STACKS.size();
            if (EXTERNAL_STACKS.size() < pruneAtSize) {
                return;
            }
            orphans = pruneLocked();
            pruneAtSize = Math.max(64, 2 * EXTERNAL_STACKS.size());   // amortized: O(1) per registration
        }
        adoptAll(orphans);
    }

    /**
     * Under {@link #EXTERNAL_STACKS}'s lock: removes the stacks whose thread has ended and that
     * hold nothing latent, keeping their counters, and returns those whose thread ended with
     * latent futures left, for {@link #adoptIfOrphaned} outside the lock.
     */
    private static List<LatentStack> pruneLocked() {
        List<LatentStack> orphans = new ArrayList<>();
        for (Iterator<LatentStack> it = EXTERNAL_STACKS.iterator(); it.hasNext(); ) {
            LatentStack x = it.next();
            if (x.owner.isAlive()) {
                continue;
            }
            if (x.top > x.base) {                         // racy, as the counters: an adopter may be at work
                orphans.add(x);
                continue;
            }
            long[] c = x.counts();
            for (int i = 0; i < 4; i++) {
                RETIRED_COUNTS[i] += c[i];
            }
            it.remove();
        }
        externalStacks = EXTERNAL_STACKS.size();
        lastPruneNanos = System.nanoTime();
        return orphans;
    }

    private static void adoptAll(List<LatentStack> orphans) {
        for (LatentStack x : orphans) {
            x.adoptIfOrphaned();
        }
    }

    /**
     * Any thread: if this is the stack of a thread that is not a worker and that thread has
     * ended with latent futures left, promotes them all (whatever the spawn mode: no body runs
     * under the monitor, so adopters of different stacks never wait for each other), so that
     * they run, and their touchers stop waiting for an owner that will never come back.
     * The owner's last action happens-before {@code isAlive()} returning false, so the owner-only
     * fields are then safe to use; adopters exclude each other with this stack's monitor.
     * Called by a toucher or canceller of one of its futures, and by the pruning of
     * {@link #EXTERNAL_STACKS}.
     */
    void adoptIfOrphaned() {
        if (worker != null || owner.isAlive()) {
            return;
        }
        synchronized (this) {                             // promotes only: no body runs under the monitor
            while (top > base) {
                promoteAt(base, "its thread ended");
            }
        }
    }

    /**
     * A worker's stack. Called by the runtime when it creates a worker.
     *
     * @param worker the owning worker
     */
    public LatentStack(Worker worker) {
        this(worker, worker.pool(), worker);
    }

    private LatentStack(Worker worker, SpindlePool pool, Thread owner) {
        super(worker, pool, owner);
        this.keep = worker != null ? worker.latentKeep() : FutureCall.EXTERNAL_DEPTH;
        rebound();
        // What a future run at its creation leaves (see ranNow), so that the first future on a
        // new stack takes the same branches as every later one. A new pool's first futures used to
        // find no table and different made* fields, and trapped in code C2 had compiled on the
        // previous pool's stack; the recompiled code ran 35-40% slower for as long as the JVM
        // lived (Fib at one worker in a second pool of one worker: 350-372 ms per fib(36) against
        // 247-269 in the first; 231-253 in every pool with this; PERFORMANCE.md, futures suite,
        // "The call form").
        madeRegion = newRegion();
        madeBody = LazyFuture.NO_BODY;
        madeCell = Outcome.IN_HANDLE;
    }

    /**
     * The calling thread's stack: its worker's, or a thread-local one promoting into the default pool.
     *
     * @return the stack
     */
    static LatentStack current() {
        return of(Thread.currentThread());
    }

    /**
     * The stack of {@code t}, which must be the calling thread (see {@link #current()}).
     *
     * @param t the calling thread
     * @return its stack
     */
    static LatentStack of(Thread t) {
        return t instanceof Worker w ? w.latentStack() : EXTERNAL.get();
    }

    /**
     * How many latent futures above the floor this stack keeps before a new future runs at its
     * creation (see {@link #runsNow}): {@code Worker.latentKeep()}, log2(P) rounded up, for a worker;
     * {@code FutureCall.EXTERNAL_DEPTH} for a thread that is not a worker.
     */
    private final int keep;
    /** A thread that is not a worker: futures its woven serial methods made in place (a worker counts its own). */
    private long madeInPlace;
    /** A thread that is not a worker: its newest promotion, to avoid flooding the submission queue. */
    private ClaimableTask lastPromoted;
    /** A thread that is not a worker: woven calls until it next offers work. */
    private int externalPoll;
    /** A thread that is not a worker: its deferred woven calls whose frames wait for them. */
    private int externalDeferred;
    /** A thread that is not a worker: a call runs at its read with its frame's room lent ({@link #lendRoomForRead}). */
    private boolean externalRoomLent;

    // ------------------------------------------------------------------ owner fast path

    /**
     * Owner, as a future of the object API is created: true if it should run now, at its
     * creation, instead of being pushed latent — when this stack already keeps {@link #keep}
     * latent futures that a hungry worker could be given and nobody asked for work. Those kept are
     * the oldest, the largest pieces of a recursion; a future deeper down runs as the call it
     * stands for, which is the serial program's order and costs a method call, and escape
     * analysis removes its handle. A request, or a stack emptied by promotions, makes the next
     * futures latent again. Never true under spawn=always.
     *
     * <p>{@code max(base, floor) + keep} is kept in {@code runNowAt}, set where base or floor
     * change, so the test is two loads and a compare besides the request flag (Fib at one worker
     * −3%, TreeSum −4 to −8%; PERFORMANCE.md, futures suite, "Sixteenth session").
     *
     * @return whether to run the future at its creation
     */
    boolean runsNow() {
        return top >= runNowAt && (int) REQUESTED.getOpaque(this) == NONE;
    }

    /**
     * A thread {@code t} that is not a worker, at a woven serial method's prologue
     * ({@link SerialFutures#mayKeepLatent()}): true if a future it created now could be kept latent.
     *
     * @param t the calling thread
     * @return whether the frame should run its method as written
     */
    static boolean externalMayKeepLatent(Thread t) {
        return !of(t).runsNow();
    }

    /**
     * Owner, as a future of the object API is created: runs it now or pushes it latent (see
     * {@link #runsNow}), returns its number and leaves what its handle holds in the {@code made*}
     * fields, which the handle's constructor reads at once: the region, the body (or
     * {@code NO_BODY}), the cell, and for a primitive kind the value's raw bits in
     * {@link #madeBits}.
     *
     * <h2>Why this method is never inlined, and how that is ensured</h2>
     * The caller's compiled code must inline the handle's allocation, or the handle escapes and is
     * allocated (40 bytes more per future). C2 refuses to inline a method it has already compiled
     * on its own into more than {@code InlineSmallCode} bytes of machine code ("already compiled
     * into a big method"), and a method that runs the body, compiled on its own, inlines the body
     * and with it the whole recursion. Until 2026-11-26 this method was small, and whether C2
     * inlined it into the handle's constructor — making the constructor big, so that the caller
     * called it and the handle escaped — was a race between compilations: on a Zen 1 host Fib at
     * one worker ran at 3.2× seq in two JVMs of three and 2.3× in the third, with 30 bytes per
     * future pooled over the JVMs at one worker and 50 at two, where 16 is the handle-free form
     * (PERFORMANCE.md, futures suite, "`admit` out of line"). Forcing it out of line with
     * {@code -XX:CompileCommand=dontinline} gave 16 bytes and 2.15–2.2× in every JVM; forcing it
     * in gave 30–43 bytes and 3.2×. A library cannot set compiler flags, and HotSpot's
     * {@code @DontInline} is honoured only in the JDK's own classes, so this method stays out of
     * line by its size: C1 inlines at most {@code MaxInlineSize} (35) bytes of bytecode and C2 at
     * most {@code FreqInlineSize} (325 on x86-64 and AArch64) at a hot call site, and this
     * method's bytecode is longer than that — the four kinds in one method and, under
     * {@code -Dspindle.debug.checks=true}, the stack's invariants checked at every creation
     * (which C2 and C1 remove as dead code when the flag is off, as it is by default; the
     * interpreter pays one static load). {@code InlineBarrierTest} fails the build if the
     * bytecode shrinks to an inlinable size. The constructors and {@code create} that call it
     * stay a few bytecodes, so they are inlined and the handle is scalar replaced; the caller's
     * lambda escapes into this call, as it would into the latent push anyway. Since 2026-11-27
     * a supplier's {@code create} runs a future that {@link #runsNow} at its creation itself,
     * through methods within {@code MaxInlineSize} ({@code LazyFuture.ranAtCreation}), and calls
     * this method only for the latent path, so that where that path never ran the lambda is
     * removed too. The primitive call forms decide themselves too and, for a future that runs
     * now, call this method with {@link #APPLY} only to apply the function: it runs here, out of
     * line, so that no method that allocates a handle contains the recursion (see
     * {@code LongFuture.of(IntToLongFunction, int)}); their latent path, the object call form and
     * the woven calls come here whole.
     *
     * @param body the body: a Supplier, LongSupplier, IntSupplier or DoubleSupplier; or
     *             for a kind of the call form ({@link FunctionCall}) the function
     * @param ref  the call form's argument if it is a reference, else ignored
     * @param arg  the call form's argument if it is an {@code int}, else ignored
     * @param kind {@link #OBJECT}, {@link #LONG}, {@link #INT} or {@link #DOUBLE}, or a kind of
     *             {@link FunctionCall}: how to call it; a primitive call-form kind with
     *             {@link #APPLY} or'ed in only applies the function and returns the value's raw
     *             bits, a failure thrown to the caller; a call-form kind with {@link #LATENT}
     *             or'ed in is pushed latent without a decision ({@link #pushCall})
     * @return the future's number, or under {@link #APPLY} the value's raw bits
     */
    @SuppressWarnings("unchecked")
    long admit(Object body, Object ref, int arg, int kind) {
        if (CHECKS) {
            // A primitive call-form kind comes only with APPLY or LATENT: its handle's constructor decides.
            if (kind > DOUBLE && kind != FunctionCall.OBJECT_OF_REF && (kind & (APPLY | LATENT)) == 0) {
                throw new IllegalArgumentException("admit of call-form kind " + kind + " without APPLY or LATENT");
            }
            // The invariants every owner operation relies on (LatentStackOwnerFields).
            Object[] a = slots;
            long[] nums = numbers;
            int t = top;
            int b = base;
            if (b < 1 || t < b || t > a.length || nums.length != a.length) {
                throw new IllegalStateException("latent stack of " + owner.getName() + ": base " + b
                        + ", top " + t + ", capacity " + a.length + "/" + nums.length);
            }
            if (floor < 1) {
                throw new IllegalStateException("latent stack of " + owner.getName() + ": floor " + floor);
            }
            if (MODE != SpawnMode.ALWAYS && runNowAt != oldestGivable() + keep) {
                throw new IllegalStateException("latent stack of " + owner.getName() + ": runs now at " + runNowAt
                        + ", base " + b + ", floor " + floor + ", keep " + keep);
            }
            if (worker != null && worker.latentRoom() != t < runNowAt) {
                throw new IllegalStateException("latent stack of " + owner.getName() + ": the worker's mirror says "
                        + (worker.latentRoom() ? "room" : "no room") + ", top " + t + ", runs now at " + runNowAt);
            }
            long previous = -1;
            for (int i = b; i < t; i++) {
                if (a[i] == null) {
                    throw new IllegalStateException("latent stack of " + owner.getName()
                            + ": no entry at position " + i + " in [" + b + ", " + t + ")");
                }
                if (nums[i] <= previous || nums[i] >= created) {
                    throw new IllegalStateException("latent stack of " + owner.getName() + ": number "
                            + nums[i] + " at position " + i + " after " + previous + ", next number " + created);
                }
                previous = nums[i];
            }
            if (t < a.length && a[t] != null) {
                throw new IllegalStateException("latent stack of " + owner.getName()
                        + ": an entry above the top at position " + t);
            }
            if (runningCount < 0 || runningCount > running.length) {
                throw new IllegalStateException("latent stack of " + owner.getName() + ": " + runningCount
                        + " futures running out of order, room for " + running.length);
            }
            if (Thread.currentThread() != owner) {
                throw new IllegalStateException("latent stack of " + owner.getName() + " used by "
                        + Thread.currentThread().getName());
            }
        }
        if ((kind & APPLY) != 0) {
            return apply(body, ref, arg, kind ^ APPLY);
        }
        ExposedFutures r = currentRegion();
        if ((kind & LATENT) != 0) {
            return pushLatent(r, FunctionCall.asBody(body, ref, arg, kind ^ LATENT));
        }
        if (!runsNow()) {
            return pushLatent(r, kind <= DOUBLE ? body : FunctionCall.asBody(body, ref, arg, kind));
        }
        long k = created++;
        long bits = 0L;
        Object c = Outcome.IN_HANDLE;
        try {
            switch (kind) {
                case LONG -> bits = Outcome.invokeLong(body);
                case INT -> bits = Outcome.invokeInt(body);
                case DOUBLE -> bits = Double.doubleToRawLongBits(Outcome.invokeDouble(body));
                case FunctionCall.OBJECT_OF_REF -> c = Outcome.encode(((Function<Object, ?>) body).apply(ref));
                default -> c = Outcome.encode(Outcome.invoke(body));       // OBJECT
            }
        } catch (Throwable ex) {
            c = failedAtCreation(r, k, ex);
        }
        if ((kind & 3) != OBJECT) {
            madeBits = bits;
        }
        return ranNow(r, k, c);
    }

    /**
     * The value of a primitive call-form function applied to its argument, as raw bits.
     *
     * @param fn   the function
     * @param ref  the argument, if a reference
     * @param arg  the argument, if an {@code int}
     * @param kind a primitive kind of {@link FunctionCall}
     * @return the value's raw bits
     */
    @SuppressWarnings("unchecked")
    private static long apply(Object fn, Object ref, int arg, int kind) {
        return switch (kind) {
            case FunctionCall.LONG_OF_INT -> ((IntToLongFunction) fn).applyAsLong(arg);
            case FunctionCall.LONG_OF_REF -> ((ToLongFunction<Object>) fn).applyAsLong(ref);
            case FunctionCall.INT_OF_INT -> ((IntUnaryOperator) fn).applyAsInt(arg);
            case FunctionCall.INT_OF_REF -> ((ToIntFunction<Object>) fn).applyAsInt(ref);
            case FunctionCall.DOUBLE_OF_REF -> Double.doubleToRawLongBits(((ToDoubleFunction<Object>) fn).applyAsDouble(ref));
            default -> throw new IllegalArgumentException("not a primitive call-form kind: " + kind);
        };
    }

    /**
     * Owner: the handle of a future run at its creation holds its outcome and no body.
     *
     * <p>The three fields are stored only when they change. This stack lives as long as its
     * thread, so it is soon in an old G1 region, and a reference stored into an old object passes
     * G1's post-write barrier up to its StoreLoad fence whether or not the value changed. A run of
     * futures run at their creation leaves the same region, {@code NO_BODY} and — for a primitive
     * or a {@code null} result — the same cell each time, so a compare replaces up to three fences
     * per future (Fib at one worker: 206–280 ms before, 177–178 after; PERFORMANCE.md, futures
     * suite, "Stores into a long-lived stack"). A boxed result is a new object each time and still
     * pays one.
     */
    private long ranNow(ExposedFutures r, long k, Object c) {
        if (madeRegion != r) {
            madeRegion = r;
        }
        if (madeBody != LazyFuture.NO_BODY) {
            madeBody = LazyFuture.NO_BODY;
        }
        if (madeCell != c) {
            madeCell = c;
        }
        return k;
    }

    /** Owner: the future is pushed latent; its handle holds the body the stack holds. */
    private long pushLatent(ExposedFutures r, Object body) {
        if (TRACE) {
            body = new TracedBody(body);
        }
        long k = push(body);
        madeRegion = r;
        madeBody = body;
        madeCell = null;
        return k;
    }

    /**
     * Owner: a future run at its creation failed. Its outcome goes into the pool's untouched-failure
     * ledger with a report's handle, so that a failure nobody touches is still reported; a touch
     * or a scope marks it observed.
     *
     * @return the outcome to store in the future's handle
     */
    Outcome failedAtCreation(ExposedFutures r, long number, Throwable ex) {
        Outcome o = Outcome.failed(ex);
        pool.untouchedFailures().add(LazyFuture.view(r, number, o), o);
        return o;
    }

    /**
     * Owner: pushes an entry — a future of the object API as its body (nothing here holds the
     * future's handle), or a woven call's record — and returns its number; services a pending
     * request.
     *
     * @param entry the body (a Supplier or a primitive supplier, or a {@link TracedBody}), or a {@link FutureCall}
     * @return the entry's number, unique on this stack
     */
    long push(Object entry) {
        Object[] a = slots;
        int t = top;
        long k = created;
        if (t == a.length || k >= renewAt) {
            a = t == a.length ? makeRoom() : renewSlots(k);
            t = top;
        }
        a[t] = entry;
        numbers[t] = k;
        created = k + 1;
        moveTop(t + 1);
        if (MODE == SpawnMode.ALWAYS) {
            promoteNewest();
        } else if ((int) REQUESTED.getOpaque(this) != NONE || worker == null) {
            serviceRequest();
        }
        return k;
    }

    /**
     * A thread that is not a worker makes ({@code delta} 1) a future in place, or takes its count
     * back (-1: its body failed, and the stack numbers and counts it): counted on its stack.
     */
    static void countExternalMadeInPlace(int delta) {
        EXTERNAL.get().madeInPlace += delta;
    }

    /** The number of a handle made in place: it was never on a stack, and it has no table. */
    static final long MADE_IN_PLACE = -1L;

    /** Owner: the number of a future run at its creation, which the stack never holds. */
    long nextNumber() {
        return created++;
    }

    /** Owner: the number the next future created on this stack gets, run now or pushed. */
    long upcomingNumber() {
        return created;
    }

    /**
     * Owner, in the constructor of a primitive call-form handle that found {@link #runsNow} true:
     * takes the future's number (read before with {@link #upcomingNumber}) and answers
     * {@link LazyFuture#NO_BODY}, the body of a handle whose future runs at its creation.
     */
    Object runNow() {
        created++;
        return LazyFuture.NO_BODY;
    }

    /**
     * Owner, in the constructor of a primitive call-form handle that found {@link #runsNow} false:
     * pushes the future latent as a body calling {@code fn} and returns that body — the handle's.
     * Its number is {@code number}, which the constructor read with {@link #upcomingNumber} before
     * deciding, and its table the one {@link #currentRegion} gave then: a push may serve a request
     * and so retire the table, but only for futures created after it. The constructor thus has
     * its handle's table and number as values on both paths, and only the body, the cell and the
     * value differ (PERFORMANCE.md, futures suite, "Seventeenth session").
     *
     * @param number the number {@link #upcomingNumber} gave
     * @return the pushed body
     */
    Object pushCall(Object fn, Object ref, int arg, int kind, long number) {
        long k = admit(fn, ref, arg, kind | LATENT);
        if (k != number) {
            throw new IllegalStateException("latent stack of " + owner.getName() + ": future #" + k
                    + " pushed where its handle has #" + number);
        }
        return madeBody;
    }

    /**
     * Owner: the table new futures are recorded in — never null: made with the stack and again by
     * each exposure that retires one ({@link #retireRegion}).
     *
     * @return the table
     */
    ExposedFutures currentRegion() {
        return region;
    }

    private ExposedFutures newRegion() {
        ExposedFutures r = new ExposedFutures(this, created);
        region = r;
        ArrayDeque<ExposedFutures> open = openRegions;
        if (top == base) {
            open.clear();                             // nothing latent belongs to the older ones
        }
        open.addLast(r);
        return r;
    }

    /**
     * Owner: the table of the latent future numbered {@code number}: the newest table created
     * at or before that number. Tables older than the oldest latent entry's are dropped here.
     */
    private ExposedFutures regionOf(long number) {
        ArrayDeque<ExposedFutures> open = openRegions;
        long oldest = numbers[base];
        for (;;) {
            ExposedFutures first = open.pollFirst();
            ExposedFutures next = open.peekFirst();
            if (next == null || next.firstNumber > oldest) {
                open.addFirst(first);
                break;
            }
        }
        Iterator<ExposedFutures> it = open.descendingIterator();
        while (it.hasNext()) {
            ExposedFutures r = it.next();
            if (r.firstNumber <= number) {
                return r;
            }
        }
        throw new IllegalStateException("no table for future #" + number + " on " + this);
    }

    /**
     * Owner: a table received an exposure; futures created from now on go to a new one, made
     * here rather than by the next future. A stack that had no table when its next future came
     * ({@code currentRegion} used to make one then) took a branch C2 had not compiled into {@code admit},
     * and the recompiled code ran ~40% slower from then on: Fib in the call form, fib(36), 178–191
     * ms per run at two workers with the table made lazily, 139–143 with it made here; one worker
     * after a pool of two, 337–351 against 263 (PERFORMANCE.md, futures suite, "The call form").
     */
    void retireRegion(ExposedFutures r) {
        if (region == r) {
            newRegion();
        }
    }

    /**
     * Owner: pops future {@code number} if it is the newest entry — the touch's fast path.
     *
     * @return true if it was on top and is now removed
     */
    boolean popFuture(Object body, long number) {
        int t = top - 1;
        Object[] a = slots;
        if (a[t] == body && numbers[t] == number) {   // a cleared slot (below base) never matches
            a[t] = null;
            moveTop(t);
            return true;
        }
        return false;
    }

    /** Owner: the entry at {@code i} as a {@link Latent}, building the view of a future's entry. */
    private Latent entryAt(int i) {
        Object e = slots[i];
        return e instanceof Latent l ? l : new LatentFuture(regionOf(numbers[i]), numbers[i], e);
    }

    /** Owner: removes the entry at {@code i < top}, moving the newer ones down by one. */
    private void removeAt(int i) {
        int t = top - 1;
        if (i != t) {
            int n = t - i;
            System.arraycopy(slots, i + 1, slots, i, n);
            System.arraycopy(numbers, i + 1, numbers, i, n);
            epoch++;
        }
        slots[t] = null;
        moveTop(t);
    }

    /**
     * Owner, after {@link FutureCall#begin} chose to defer a woven call: pushes it and, if a worker
     * of the pool is parked and this worker's deque offers nothing, exposes the oldest latent call
     * at once. A worker asks for work while it searches and once more before it parks; a request
     * that found nothing latent is dropped, so a worker that parked after such an answer would
     * otherwise sleep until this worker's task ends, however much work the task defers meanwhile
     * (measured on AdapInt at two workers: the second worker parked for the last ~7–19 ms of a
     * ~105 ms run in most runs). One read of the pool's idle word per deferred call; calls
     * are deferred only near the top of a task's recursion, so this is off the per-call path.
     */
    void pushDeferred(FutureCall c) {
        push(c);
        if (MODE == SpawnMode.AUTO && worker != null && top > oldestGivable()
                && pool.hasParkedWorkers() && !offersWork()) {
            promoteAt(oldestGivable(), "a worker is parked");
        }
    }

    /**
     * Owner, at the first push at least {@code RENEW_MASK + 1} futures after the last renewal:
     * replaces {@code slots} by a fresh copy (same length, same positions), so that the array
     * stays in G1's young generation. A store of a new object (every push stores the caller's
     * lambda) into an array in an old region takes G1's post-write barrier through a StoreLoad
     * fence, on every push; into a young array it does not. Measured: fib(32) with a lambda pushed
     * on and popped off a plain array, 12.2 ms with a young array, 28.6–29.4 ms once a full GC
     * moved the array to the old generation (docs/PERFORMANCE.md). A long-lived stack's array is
     * promoted after a few young collections; a copy every 64K futures (a few hundred bytes, about
     * every 100 µs of fine-grained futures) is never old. The period counts futures, not pushes,
     * and is tested against a bound rather than a multiple: most futures run at their creation
     * and never push, so a push rarely falls on a multiple of 64K (a mask test on the number
     * renewed the array almost never once futures ran at their creation). Nothing else holds the
     * array, so no position or mark changes.
     *
     * @param k the number of the future being pushed
     */
    private Object[] renewSlots(long k) {
        Object[] b = Arrays.copyOf(slots, slots.length);
        slots = b;
        if (renewMask < RENEW_MASK) {
            renewMask = renewMask << 1 | 1;
        }
        renewAt = k + renewMask + 1;
        return b;
    }

    /** Owner: compacts (if promotions left room below) or grows the array. */
    private Object[] makeRoom() {
        Object[] a = slots;
        int n = top - base;
        floor = Math.max(1, floor - (base - 1));     // every entry moves down by base - 1 (rebound below)
        if (base > 1 && n < a.length / 2) {
            System.arraycopy(a, base, a, 1, n);
            System.arraycopy(numbers, base, numbers, 1, n);
            for (int i = n + 1; i < top; i++) {
                slots[i] = null;
            }
        } else {
            int len = a.length * 2;
            Object[] b = new Object[len];
            long[] nb = new long[len];
            System.arraycopy(a, base, b, 1, n);
            System.arraycopy(numbers, base, nb, 1, n);
            slots = a = b;
            numbers = nb;
        }
        base = 1;
        top = n + 1;
        epoch++;
        rebound();
        return a;
    }

    /** Owner: true if another thread asked for work (an opaque load). */
    boolean isRequested() {
        return (int) REQUESTED.getOpaque(this) != NONE;
    }

    /**
     * Owner, a worker that found its request hint set — a woven serial method's frame on its way
     * to the method as written with no room on the stack ({@code Worker.confirmRequestHint}), or a
     * woven call at its declaration ({@code FutureCall}): true if a request stands behind the
     * hint, to be served (the frame's method as written serves it at its next push;
     * {@code FutureCall} serves it at once); false, with the hint cleared, if none does.
     *
     * <p>A hint can outlive its request: a thief sets it <em>after</em> its request, so the owner
     * may serve the request between the two and the hint stays set with nothing behind it. Only a
     * push serves a request and clears the hint, and a frame without room runs its futures now
     * without pushing — so until the next request every prologue read "asked" and ran the method
     * as written, its futures run through the latent path: TreeSum-1K at two workers ran 41–73 ms
     * in 2–4 JVMs of 16 against 16–21 (PERFORMANCE.md, futures suite, "Twenty-sixth session").
     * Clearing follows the protocol of {@link #serviceRequest}: the hint is cleared (a volatile
     * store, then a full fence) before the request is read again, so a request made after that
     * read sets the hint again, and one made before it is seen — and then the hint is set again
     * here, so that a pending request always has its hint, whether or not this frame pushes.
     *
     * @return whether a request is pending
     */
    public boolean requestBehindHint() {
        if (isRequested()) {
            return true;
        }
        worker.clearRequestHint();
        if (isRequested()) {
            worker.hintRequest();                    // its asker may have found the stale hint still set
            return true;
        }
        return false;
    }

    /**
     * Owner, a thread that is not a worker, at a woven call made at its declaration: true once
     * every {@code interval + 1} calls, when it should offer work to idle workers.
     */
    boolean pollExternal(int interval) {
        if (--externalPoll >= 0) {
            return false;
        }
        externalPoll = interval;
        return true;
    }

    /** Owner: serves a pending request, or (not a worker) offers its oldest latent work to idle workers. */
    void offerWork() {
        serviceRequest();
    }

    /** Owner: a record for a woven call, from the free list when it has one. */
    FutureCall takeCall(FutureCallBody body) {
        int n = spareCallCount;
        FutureCall c;
        if (n > 0) {
            FutureCall[] sp = spareCalls;
            c = sp[--n];
            sp[n] = null;
            spareCallCount = n;
        } else {
            c = new FutureCall(this);
        }
        c.body = body;
        return c;
    }

    /** Owner: returns a finished record to the free list (at most {@link #MAX_SPARE_CALLS} are kept). */
    void recycle(FutureCall c) {
        c.clear();
        int n = spareCallCount;
        FutureCall[] sp = spareCalls;
        if (n == sp.length) {
            if (n >= MAX_SPARE_CALLS) {
                return;
            }
            spareCalls = sp = Arrays.copyOf(sp, n * 2);
        }
        sp[n] = c;
        spareCallCount = n + 1;
    }

    // ------------------------------------------------------------------ owner slow paths

    /** Owner: removes the woven call {@code f} from anywhere in the stack. */
    boolean remove(Latent f) {
        Object[] a = slots;
        for (int i = top - 1; i >= base; i--) {
            if (a[i] == f) {
                removeOutOfOrder(i);
                return true;
            }
        }
        return false;
    }

    /**
     * Owner: removes future {@code number} from anywhere in the stack. Numbers increase from
     * {@code base} to {@code top}, so this is a binary search: a future that is not here (run,
     * promoted) costs a few loads, however many futures are latent.
     */
    boolean removeFuture(Object body, long number) {
        long[] n = numbers;
        int lo = base;
        int hi = top - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long m = n[mid];
            if (m < number) {
                lo = mid + 1;
            } else if (m > number) {
                hi = mid - 1;
            } else {
                if (slots[mid] != body) {
                    return false;
                }
                removeOutOfOrder(mid);
                return true;
            }
        }
        return false;
    }

    /**
     * Owner: runs future {@code number}, just removed out of order, for its touch, marked as
     * running so that a touch from inside its body is recognized (the handle, which would hold
     * the marker, is not at hand here).
     */
    Object runOutOfOrder(long number, Object body) {
        long[] r = running;
        int n = runningCount;
        if (n == r.length) {
            running = r = Arrays.copyOf(r, n * 2);
        }
        r[n] = number;
        runningCount = n + 1;
        try {
            return Outcome.runTouched(body);
        } finally {
            runningCount = n;
        }
    }

    /** Owner: true if future {@code number} is being run by {@link #runOutOfOrder}. */
    boolean isRunning(long number) {
        for (int i = runningCount - 1; i >= 0; i--) {
            if (running[i] == number) {
                return true;
            }
        }
        return false;
    }

    private void removeOutOfOrder(int i) {
        removeAt(i);
        if (i < floor) {
            floor--;                                  // the entries above moved down by one
        }
    }

    /**
     * Owner: the number of latent futures.
     *
     * @return the count
     */
    public int size() {
        return top - base;
    }

    /** Owner: acts on the request flag if another thread set it. */
    public void serviceIfRequested() {
        if ((int) REQUESTED.getOpaque(this) != NONE) {
            serviceRequest();
        }
    }

    private void serviceRequest() {
        if (worker != null) {
            worker.clearRequestHint();               // before the exchange: a later request sets it again
        }
        int r = (int) REQUESTED.getOpaque(this) == NONE ? NONE : (int) REQUESTED.getAndSet(this, NONE);
        if (r == ALL) {
            exposeAll("a thread waits for one of them");
        } else if (MODE == SpawnMode.AUTO && top > oldestGivable()
                && (r == ONE || worker == null && pool.hasIdleWorkers()) && !offersWork()) {
            promoteAt(oldestGivable(), r == ONE ? "demand" : "idle workers");
        }
    }

    /** True if this stack's earlier promotions still wait for a taker: no need to expose more. */
    private boolean offersWork() {
        if (worker != null) {
            return worker.offersWork();
        }
        ClaimableTask p = lastPromoted;
        return p != null && !p.isClaimed() || pool.hasQueuedSubmissions();   // this thread's, or another's
    }

    /**
     * Owner: exposes every latent future, oldest first (NEVER mode: runs them here instead). The
     * runtime calls this before a worker would idle in a join.
     *
     * @param reason for the promotion log
     */
    public void exposeAll(String reason) {
        if (MODE == SpawnMode.NEVER) {
            settleInline(base);
            return;
        }
        while (top > base) {
            promoteAt(base, reason);
        }
    }

    /**
     * Promotes the future at position {@code i}: the oldest of the stack ({@code base}) or the
     * oldest of the innermost stolen task's own futures ({@code floor}).
     */
    private void promoteAt(int i, String reason) {
        Latent f = entryAt(i);
        boolean outer = i < floor;
        if (i == base) {
            slots[i] = null;
            if (++i == top) {
                base = top = floor = 1;               // empty: whatever comes next is the innermost task's
                epoch++;
            } else {
                base = i;
            }
            rebound();
        } else {
            removeAt(i);
            epoch++;
        }
        promote(f, true, reason, outer);
    }

    private void promoteNewest() {
        int t = top - 1;
        Latent f = entryAt(t);
        slots[t] = null;
        moveTop(t);
        promote(f, false, "spawn=always", t < floor);
    }

    /**
     * Wraps {@code f} in a task and makes it visible. A worker pushes it on its deque, unless the
     * future belongs to a frame below the innermost stolen task ({@code outer}): touchers of that
     * task take work from this deque above the task's floor (see {@code Worker.awaitFuture}), so
     * such a future goes to the pool's submission queue instead.
     */
    private void promote(Latent f, boolean shareNow, String reason, boolean outer) {
        ClaimableTask p = f.promote(this);
        p.promotedAt = System.nanoTime();
        promoted++;
        lastPromoted = p;
        if (TRACE) {
            LOG.log(System.Logger.Level.INFO, () -> "promoted future created at " + f.site() + " on "
                    + owner.getName() + " (" + reason + ")");
        }
        if (worker == null) {
            pool.execute(p);
        } else if (outer) {
            pool.handOff(p);
        } else {
            worker.pushForOthers(p, shareNow);
        }
    }

    /** Owner: runs every latent future above {@code from} here, newest first. */
    private void settleInline(int from) {
        while (top > from && top > base) {
            int t = top - 1;
            Latent f = entryAt(t);
            slots[t] = null;
            moveTop(t);
            f.runDetached(this);
        }
    }

    // ------------------------------------------------------------------ regions (called by workers)

    /**
     * A mark of the current top, taken before a task runs.
     *
     * @return the mark
     */
    public long mark() {
        return ((long) epoch << 32) | (top & 0xffffffffL);
    }

    /**
     * True if futures may have been left latent since {@code mark}.
     *
     * @param mark from {@link #mark()}
     * @return whether {@link #endRegion} has work
     */
    public boolean leftSince(long mark) {
        return top > base && (top > (int) mark || epoch != (int) (mark >>> 32));
    }

    /**
     * After a task returned or threw: exposes the futures it created and left latent (NEVER mode:
     * runs them), so none is lost with the task's frames.
     *
     * @param mark from {@link #mark()} before the task
     */
    public void endRegion(long mark) {
        int from = epoch == (int) (mark >>> 32) ? Math.max((int) mark, base) : base;
        if (MODE == SpawnMode.NEVER) {
            settleInline(from);
            return;
        }
        if (from == base) {
            exposeAll("its task ended");
            return;
        }
        int fl = floor;
        List<Latent> left = new ArrayList<>(top - from);
        for (int i = from; i < top; i++) {
            left.add(entryAt(i));
            slots[i] = null;
        }
        moveTop(from);
        for (int k = 0; k < left.size(); k++) {
            promote(left.get(k), true, "its task ended", from + k < fl);
        }
    }

    /**
     * Owner (its worker, as it starts running a stolen task): futures created from now on belong
     * to that task. Returns the previous floor, for {@link #exitSteal}.
     *
     * @return the floor to restore
     */
    public int enterSteal() {
        int f = floor;
        floor = top;
        rebound();
        return f;
    }

    /**
     * Owner (its worker, as the stolen task returns): restores the floor of the enclosing task.
     *
     * @param previous from {@link #enterSteal}
     */
    public void exitSteal(int previous) {
        floor = Math.min(previous, Math.max(1, top));
        rebound();
    }

    /**
     * Owner, after {@code base} or {@code floor} changed: the top at or above which a new future
     * runs at its creation, {@code max(base, floor) + keep} ({@link #runsNow}); never under
     * spawn=always.
     */
    private void rebound() {
        runNowAt = MODE == SpawnMode.ALWAYS ? Integer.MAX_VALUE : oldestGivable() + keep;
        mirrorRoom();
    }

    /**
     * Owner: sets {@code top} and the worker's mirror of {@code top < runNowAt} with it (see
     * {@link #mirrorRoom}). Every change of {@code top} goes through here, except those followed
     * by {@link #rebound}, which mirrors too.
     */
    void moveTop(int t) {
        top = t;
        mirrorRoom();
    }

    /**
     * Owner, after {@code top} or {@code runNowAt} changed: keeps its worker's mirror of
     * {@code top < runNowAt} in step ({@code Worker.mayKeepLatent}, which the prologue of a woven
     * serial method reads instead of this stack). A plain store on the paths that push, pop or
     * promote latent entries; none on the serial methods' path.
     */
    private void mirrorRoom() {
        if (worker != null) {
            worker.latentRoom(top < runNowAt);
        }
    }

    /** Owner: a frame deferred a woven call (see {@link FutureCall}'s spawn decision). */
    void callDeferred() {
        if (worker != null) {
            worker.addDeferRoom(-1);
        } else {
            externalDeferred++;
        }
    }

    /** Owner: the frame that deferred a woven call has its result. */
    void callConsumed() {
        if (worker != null) {
            worker.addDeferRoom(1);
        } else {
            externalDeferred--;
        }
    }

    /**
     * Owner, at the read of a deferred woven call it just popped off its own top: true if the
     * frame lends its room to the call, which then runs as if that frame had its result (the room
     * is back, {@link #callConsumed} done) — so the call's own first levels defer again. Only
     * when the popped call was the last entry a hungry worker could have been given, and not
     * inside another call that runs on lent room; {@link #endLentRead} after the call.
     *
     * <p>Why. A frame counts as waiting until its call's read has finished, so a call made at its
     * read runs with the room its frame took and, below the top levels, defers nothing: a worker
     * that gets hungry while the owner is inside it can only be given calls of the frame the
     * owner is at, mostly deep and tiny, one per request. On AdapInt at two workers that was the
     * difference between runs of 64.5–67 ms (the second worker took the last big call before the
     * owner read it) and runs of 67–80 ms (hundreds to thousands of tiny pieces, each a promotion
     * and often a wait at its read). Lent for the last entry at any depth, the room made the
     * whole left spine of every read call defer again (TreeSum-1K about +17% at two workers);
     * one level deep, it costs at most the deferring levels again once per read of the last
     * entry (docs/ARCHITECTURE.md §10, "Room lent at the read"; docs/PERFORMANCE.md,
     * directive suite, "Twenty-first session").
     *
     * @return whether the room was lent
     */
    boolean lendRoomForRead() {
        if (top > oldestGivable()) {
            return false;                            // older calls are still there to give
        }
        if (worker != null) {
            if (!worker.lendRoom()) {
                return false;
            }
        } else {
            if (externalRoomLent) {
                return false;
            }
            externalRoomLent = true;
        }
        callConsumed();
        return true;
    }

    /** Owner: the call run on lent room ({@link #lendRoomForRead}) returned. */
    void endLentRead() {
        if (worker != null) {
            worker.endLentRoom();
        } else {
            externalRoomLent = false;
        }
    }

    /** Owner, not a worker: deferred woven calls whose frames wait for them. */
    int externalDeferred() {
        return externalDeferred;
    }

    /**
     * Owner: the position of the oldest latent future a hungry worker may be given — the oldest
     * above the innermost stolen task's floor; entries from there to {@code top} are givable.
     */
    private int oldestGivable() {
        return Math.max(base, floor);
    }

    /** Owner: true if no latent entry above the floor could be given to a hungry worker. */
    boolean nothingToGive() {
        return top <= oldestGivable();
    }

    // ------------------------------------------------------------------ requests from other threads

    /**
     * Another thread: "someone is hungry" — expose the oldest latent future at your next chance.
     * Nothing under {@code spindle.spawn=never}, where no latent future is ever exposed to another
     * thread.
     */
    public void requestOne() {
        if (MODE != SpawnMode.NEVER && (int) REQUESTED.getOpaque(this) == NONE && REQUESTED.compareAndSet(this, NONE, ONE) && worker != null) {
            worker.hintRequest();
        }
    }

    /** Another thread, waiting for one of this stack's futures: "expose everything". */
    void requestAllHere() {
        REQUESTED.setVolatile(this, ALL);
        if (worker != null) {
            worker.hintRequest();
        }
    }

    /**
     * A worker of the default pool about to park: asks one stack of a thread that is not a worker,
     * among those that seem to hold latent futures and have no request pending, to expose its
     * oldest (the runtime asks its own workers' stacks). One, because one parking worker needs
     * one piece of work: asking every such stack, as this did until 2026-11-27, had each of
     * 100,000 virtual threads that made a future promote it — a submission, a worker's run and a
     * wait per future of a few nanoseconds (one future per thread: 10 µs per thread against 3.6
     * with spawn=never; PERFORMANCE.md, futures suite, "Threads that are not workers").
     */
    public static void requestExternal() {
        if (externalStacks == 0) {
            return;
        }
        List<LatentStack> orphans = List.of();
        synchronized (EXTERNAL_STACKS) {
            if (System.nanoTime() - lastPruneNanos > PRUNE_INTERVAL_NANOS) {
                orphans = pruneLocked();                 // at most every 10 ms: ended threads' futures
            }
            for (LatentStack s : EXTERNAL_STACKS) {
                if (s.top > s.base && (int) REQUESTED.getOpaque(s) == NONE && s.owner.isAlive()) {   // racy hints
                    s.requestOne();
                    break;
                }
            }
        }
        adoptAll(orphans);
    }

    // ------------------------------------------------------------------ statistics

    /**
     * Racy snapshot of this stack's counters.
     *
     * @return created, inline, promoted, stolen
     */
    public long[] counts() {
        long c = created;
        long p = promoted;
        long inline = c - p - cancelled - Math.max(0, top - base);
        long made = madeInPlace;                             // a worker's are the worker's: 0 here
        return new long[] {c + made, inline + made, p, stolen};
    }

    /**
     * Racy sum of the counters of every stack of a thread that is not a worker, those of ended
     * threads included.
     *
     * @return created, inline, promoted, stolen
     */
    public static long[] externalCounts() {
        long[] sum;
        synchronized (EXTERNAL_STACKS) {
            sum = RETIRED_COUNTS.clone();
            for (LatentStack s : EXTERNAL_STACKS) {
                long[] c = s.counts();
                for (int i = 0; i < 4; i++) {
                    sum[i] += c[i];
                }
            }
        }
        return sum;
    }

    @Override
    public String toString() {
        return "LatentStack[" + owner.getName() + ", latent=" + (top - base) + "]";
    }
}
