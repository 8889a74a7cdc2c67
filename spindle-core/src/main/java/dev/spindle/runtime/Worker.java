package dev.spindle.runtime;

import dev.spindle.deque.SplitDeque;
import dev.spindle.future.LatentStack;
import dev.spindle.topology.CpuAffinity;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.BitSet;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker thread of a {@link SpindlePool}: owns one {@link SplitDeque} and one slot for the
 * {@link WorkDescriptor} of a loop it runs, runs its own tasks LIFO, claims a member of a random
 * victim's open descriptor or steals the oldest shared task of its deque when it has none, helps
 * while it joins, and parks through the {@link IdleProtocol} when nothing is runnable.
 *
 * <h2>Helping join</h2>
 * A worker joining an unfinished task {@code t} never blocks while it could run something:
 * <ol>
 * <li>if {@code t} is on top of its own deque it pops and runs it;</li>
 * <li>otherwise, if {@code t} was stolen, it claims a member of the thief's descriptor or steals
 * from the thief's deque — the thief offers {@code t}'s loops and pushes its subtasks there, so
 * this speeds up {@code t} itself (leapfrogging);</li>
 * <li>then its own deque (tasks forked around {@code t}), random victims, the submission queue;</li>
 * <li>after a short spin it parks as PARKED_JOIN: woken by {@code t}'s completion or, like an idle
 * worker, by new work.</li>
 * </ol>
 * A task run while helping runs to completion on this stack; dependencies in fork/join only point
 * from a task to tasks it forked, so helping cannot create a cycle.
 *
 * <h2>Latent futures</h2>
 * Each worker also owns a {@link LatentStack} of futures not yet exposed. The worker feeds it the
 * demand signals and region boundaries the spawn decision needs: a failed steal asks the victim's
 * stack for work — unless the last promoted piece this worker ran was too small to pay for its
 * search, which keeps it from asking for a while ({@link RequestBackoff}); a worker about to park
 * asks the stacks of threads that are not workers; after
 * every task the futures the task left latent are promoted; and a joiner with nothing else to run
 * promotes (and then runs) its own latent futures instead of parking.
 *
 * <pre>{@code
 * pool.submit(() -> {
 *     Worker w = (Worker) Thread.currentThread();   // tasks run on workers
 *     return w.index() + " of " + w.pool().parallelism();
 * });
 * }</pre>
 */
public final class Worker extends WorkerPad1 {

    /** Rounds a joiner spins before it may yield or park (it also checks its task each round). */
    private static final int SPIN_ROUNDS = 64;
    /**
     * How long a worker without work scans with {@link Thread#onSpinWait()} and then with
     * {@link Thread#yield()} before it parks (the FJTask paper's spin, yield, sleep). Long enough
     * to bridge the gap between the steps of a barrier-synchronised loop (Jacobi: a wake-up from
     * park costs tens of microseconds per step), short enough that an idle pool goes quiet at once.
     */
    private static final long SPIN_NANOS = 20_000L;
    static final long YIELD_NANOS = 100_000L;

    /**
     * A future's toucher that finds it running on a thief waits this many times the thief's
     * {@link #stealLagNanos} before it asks the thief to split off part of it, and at least
     * {@link #MIN_PATIENCE_NANOS}, at most {@link #SPIN_NANOS} (see {@link #awaitFuture}).
     */
    private static final int PATIENCE_PER_LAG = 8;
    private static final long MIN_PATIENCE_NANOS = 2_000L;
    /** Samples of {@link #stealLagNanos} are capped here: a parked thief's wake-up is not a split's cost. */
    private static final int STEAL_LAG_CAP_NANOS = 20_000;

    private static final System.Logger LOG = System.getLogger(Worker.class.getName());
    private static final VarHandle PARK_STATE;
    private static final VarHandle REQUEST_HINT;
    private static final VarHandle DESCRIPTOR;
    private static final VarHandle RUNNING_STEAL;

    static {
        try {
            PARK_STATE = MethodHandles.lookup().findVarHandle(Worker.class, "parkState", int.class);
            REQUEST_HINT = MethodHandles.lookup().findVarHandle(WorkerOwnerFields.class, "requestHint", int.class);
            DESCRIPTOR = MethodHandles.lookup().findVarHandle(Worker.class, "descriptor", WorkDescriptor.class);
            RUNNING_STEAL = MethodHandles.lookup().findVarHandle(Worker.class, "runningSteal", Task.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final SpindlePool pool;
    final int index;
    final SplitDeque<Task<?>> deque;
    private final IdleProtocol idle;

    /** The stolen task this worker is running (innermost), a hint for leapfrogging joiners. */
    volatile Task<?> runningSteal;

    /**
     * The work descriptor this worker offers to the others (a loop it runs), or null: written by
     * this worker with release stores, read by thieves with acquire loads (see
     * {@link WorkDescriptor}).
     */
    @SuppressWarnings("unused") private volatile WorkDescriptor descriptor;
    /**
     * How long the promoted futures this worker stole had waited between their promotion and the
     * start of their run here, in ns: an exponentially weighted average (weight 1/8) of samples
     * capped at {@link #STEAL_LAG_CAP_NANOS} — what a split of its own work would cost a waiter at
     * least (see {@link #awaitFuture}). Written by this worker after such a steal, read racily by
     * the waiters of its steals; an int, so a read is never torn.
     */
    private int stealLagNanos;

    /** A future's toucher parked until this worker shares work (see {@link #awaitFuture}). */
    volatile Thread parkedToucher;

    /** {@link IdleProtocol} state of this worker. */
    volatile int parkState;

    /**
     * Set (under the pool's lock) when this worker exits because the pool's parallelism fell to or
     * below its index; its deque is empty then and stays empty (only the owner pushes to it).
     */
    volatile boolean retired;

    /** The CPU this worker is pinned to, or -1. */
    private volatile int pinnedCpu = -1;
    /** Binds this worker to its CPU while it is parked; set when its thread starts. */
    ParkBinding parkBinding = ParkBinding.NONE;

    /** Calls into the scheduler from user tasks without being inlined into them. */
    final CompilationBarrier barrier = new CompilationBarrier();

    /** Statistics: written by this thread only, read racily by snapshots; padded apart. */
    final WorkerCounters counters;

    /** This worker's latent futures (see {@link LatentStack}). */
    final LatentStack latent;

    /**
     * The depth a task's recursion defers to: 0 in a pool of one worker (nobody could take a
     * deferred call), otherwise 2 + log2(parallelism), or {@code -Dspindle.directive.depth}.
     */
    private final int deferDepth;

    Worker(SpindlePool pool, int index, SplitDeque<Task<?>> deque, Worker predecessor) {
        super(pool.threadGroup(), pool.workerName(index));
        this.pool = pool;
        this.index = index;
        this.deque = deque;
        this.idle = pool.idle();
        this.seed = (index + 1) * 0x9E3779B9 ^ (int) System.nanoTime();
        if (seed == 0) {
            seed = 1;
        }
        this.counters = predecessor != null ? predecessor.counters : new WorkerCounters();
        this.latent = new LatentStack(this);
        this.deferDepth = deferDepth(pool.parallelism());
        this.deferRoom = deferDepth;
        setDaemon(true);
    }

    /**
     * The pool this worker belongs to.
     *
     * @return the pool
     */
    public SpindlePool pool() {
        return pool;
    }

    /**
     * This worker's index in its pool, 0..workers-1.
     *
     * @return the index
     */
    public int index() {
        return index;
    }

    /**
     * This worker's stack of latent futures. For the futures runtime.
     *
     * @return the stack
     */
    public LatentStack latentStack() {
        return latent;
    }

    /** The property that overrides {@link #deferDepth} (and the depth of threads that are not workers). */
    public static final String DEFER_DEPTH_PROPERTY = "spindle.directive.depth";
    private static final int DEPTH_OVERRIDE = IntProperty.nonNegative(DEFER_DEPTH_PROPERTY, -1);

    static int deferDepth(int parallelism) {
        if (DEPTH_OVERRIDE >= 0) {
            return DEPTH_OVERRIDE;
        }
        if (parallelism <= 1) {
            return 0;
        }
        return 2 + (32 - Integer.numberOfLeadingZeros(parallelism - 1));
    }

    private static final int KEEP_OVERRIDE = IntProperty.nonNegative("spindle.future.keep", -1);

    /**
     * For the futures runtime: how many latent futures of the object API this worker keeps before
     * new ones run at their creation (see {@code LatentStack.runsNow}): log2(parallelism) rounded
     * up — 0 in a pool of one worker, where no other worker could be given one, 1 at two workers,
     * 2 at three or four — or {@code -Dspindle.future.keep}. The oldest latent futures are the top
     * levels of the recursion under way, and log2(P) levels of a binary recursion are P pieces:
     * one for each worker, given oldest first. A request makes the next future latent whatever
     * this says, so a hungry worker is never refused.
     *
     * <p>Why so few. A stack refills each time a touch pops its newest latent future, so the
     * number of latent pushes grows steeply with what it keeps; each costs its body object, the
     * push and the pop and the body called through its interface, and with latent paths live C2
     * compiles the owner's code into a slower form (at one worker, TreeSum-1K keeping 1 or 3 ran
     * 11–30% and 55–90% slower than keeping none, with ~2% of the samples in the latent-only
     * methods). On the Zen 1 host, TreeSum-1K (8192 sums of 1023 nodes per run) at
     * two workers with {@code spawn=never}, so that nothing was ever promoted: 180–194 ms keeping
     * 3 (2 + log2 P, the woven calls' depth, which this was until 2026-11-26), 93–102 keeping
     * none, against 100 at one worker. With promotion (the futures suite at two workers, keeping
     * 0 / 1 / 3): TreeSum-1K 195 / 88.4 / 123 ms (seq 64–70), and Fib, FFT, Raytracer, AdapInt,
     * Quicksort, Knapsack and the large trees within the host's noise of each other
     * (PERFORMANCE.md, futures suite, "Fewer latent futures at two workers"). A pool of one worker
     * kept 2 until 2026-11-26, which cost TreeSum-1K 45% there. Every path of a future — latent,
     * promoted, run at its touch — stays reachable at one worker under {@code spindle.spawn=always}
     * and from threads that are not workers.
     *
     * @return the number of latent futures kept
     */
    public int latentKeep() {
        return latentKeep(pool.parallelism());
    }

    static int latentKeep(int parallelism) {
        if (KEEP_OVERRIDE >= 0) {
            return KEEP_OVERRIDE;
        }
        return 32 - Integer.numberOfLeadingZeros(parallelism - 1);
    }

    /**
     * Owner, for the futures runtime: how many more frames on the current call path may defer a
     * woven call (see {@link #deferRoom}).
     *
     * @return the room, 0 or less when calls are made at their declaration
     */
    public int deferRoom() {
        return deferRoom;
    }

    /**
     * Owner, for the futures runtime: true if a woven call made now may be deferred for its depth —
     * room left on the current call path ({@link #deferRoom}), and some other worker that may take
     * it: not every other worker is in a quiet window ({@link RequestBackoff}). A worker whose
     * pieces just failed to pay for their search asks no one until its window ends, so keeping
     * calls latent for it only costs the owner; when the window ends it asks again, and the
     * request hint is answered as before.
     *
     * @return whether the depth rule lets this frame defer
     */
    public boolean hasRoomToDefer() {
        return deferRoom > 0 && !pool.othersQuiet();
    }

    /**
     * Owner, for the futures runtime: a frame deferred a woven call (-1) or has its result (+1).
     *
     * @param delta the change
     */
    public void addDeferRoom(int delta) {
        deferRoom += delta;
    }

    /**
     * Owner, for the futures runtime: marks a call running on its frame's lent room.
     *
     * @return false if such a call is already running in the current task (nothing is marked)
     */
    public boolean lendRoom() {
        if (roomLent) {
            return false;
        }
        roomLent = true;
        return true;
    }

    /** Owner, for the futures runtime: the call on lent room ({@link #lendRoom}) returned. */
    public void endLentRoom() {
        roomLent = false;
    }

    /**
     * Owner, for the futures runtime: its latent stack's top or bound changed.
     *
     * @param room whether the stack holds fewer latent futures than it keeps
     */
    public void latentRoom(boolean room) {
        latentRoom = room;
    }

    /**
     * Owner, for the futures runtime: the mirror {@link #latentRoom(boolean)} last wrote.
     *
     * @return whether the latent stack holds fewer latent futures than it keeps
     */
    public boolean latentRoom() {
        return latentRoom;
    }

    /**
     * Owner, the prologue of a woven serial method: true if a future created now could be kept
     * latent — the latent stack has room, or another thread may have asked for work. Two plain
     * loads of this worker's fields, no store and no call: a hint with no request behind it is
     * dealt with on the way to the method as written ({@link #confirmRequestHint}), a path that
     * never rejoins the serial method.
     *
     * <p>The hint is read plain, not opaque. C2 wraps an opaque load in {@code MemBarCPUOrder},
     * which no memory access of the method crosses: the future's count then looked the current
     * thread up again instead of reusing the prologue's, and Fib's serial method ran 110 ms at one
     * worker against 98 (PERFORMANCE.md, futures suite, "Twenty-seventh session" and
     * "Twenty-eighth session"). What a plain load gives up is that C2 may hoist it out of a loop:
     * only out of one whose body — a serial method inlined whole — makes no call and crosses no
     * barrier, since a call or an acquire in the loop makes the load depend on it. Such a loop
     * answers no request until it ends, as any stretch of code that reaches no Spindle operation;
     * it cannot be waiting for the asker either, for that takes a call or a barrier.
     *
     * <p>Why no call here: a call on a path that rejoins the serial method makes C2 assume that
     * any field may have changed where the paths meet, so every inlined level of the recursion
     * loads both fields again and keeps its values on the stack. With the stack's confirmation
     * here, Fib's serial method compiled after a second worker had asked ran 160–174 ms at one
     * worker against 138, and 86–91 ms at two against 72–79 (2026-11-28, Zen 4; PERFORMANCE.md,
     * futures suite, "Twenty-ninth session").
     *
     * @return whether the frame should run its method as written
     */
    public boolean mayKeepLatent() {
        return latentRoom || (int) REQUEST_HINT.get(this) != 0;
    }

    /**
     * Owner, on the way from a serial method's prologue to the method as written: where the
     * prologue went there for the hint alone (no room), the stack confirms that a request stands
     * behind it or clears it ({@link LatentStack#requestBehindHint}), so that a hint that outlived
     * its request sends one frame to the method as written, not every later one.
     */
    public void confirmRequestHint() {
        if (!latentRoom && (int) REQUEST_HINT.getOpaque(this) != 0) {
            latent.requestBehindHint();
        }
    }

    /**
     * Owner, for the futures runtime: true if another thread may have asked this worker for work
     * (an opaque load of the hint).
     *
     * @return whether to look at the request
     */
    public boolean requestHinted() {
        return (int) REQUEST_HINT.getOpaque(this) != 0;
    }

    /**
     * Owner, the prologue of a woven serial method's worker variant: true if another thread may
     * have asked for work — a plain load of the hint, for the reason {@link #mayKeepLatent} gives.
     *
     * @return whether to look at the request
     */
    public boolean requestHintedPlain() {
        return (int) REQUEST_HINT.get(this) != 0;
    }

    /** Another thread, after making its request visible on this worker's latent stack. */
    public void hintRequest() {
        if ((int) REQUEST_HINT.getOpaque(this) == 0) {
            REQUEST_HINT.setVolatile(this, 1);
        }
    }

    /**
     * Owner, before it looks at the request on its latent stack: a volatile store (a full fence
     * follows it), so a request made after the look sets the hint again.
     */
    public void clearRequestHint() {
        if ((int) REQUEST_HINT.getOpaque(this) != 0) {
            REQUEST_HINT.setVolatile(this, 0);
        }
    }

    @Override
    public void run() {
        Throwable death = null;
        try {
            runLoop();
        } catch (Throwable ex) {
            death = ex;
            counters.taskAbandoned(System.nanoTime());   // the task it died in ends here; a replacement shares the counters
        } finally {
            pool.onWorkerExit(this, death);
        }
    }

    boolean casParkState(int expect, int update) {
        return PARK_STATE.compareAndSet(this, expect, update);
    }

    void setParkState(int s) {
        PARK_STATE.setVolatile(this, s);
    }

    // ------------------------------------------------------------------ owner path

    /** Pushes a forked task; shares work only if some other worker is hungry. */
    void push(Task<?> t) {
        SplitDeque<Task<?>> d = deque;
        d.push(t);
        if (d.isShareRequested() || idle.anyoneHungry()) {
            publish();
        }
    }

    /** Moves part of the private region into the shared region and wakes a worker if needed. */
    private void publish() {
        if (deque.share() > 0) {
            signalShared();
        }
    }

    /** New shared work on this deque: wake a parked worker, and a toucher parked on our steal. */
    private void signalShared() {
        idle.signalWork();
        Thread w = parkedToucher;
        if (w != null) {
            parkedToucher = null;
            LockSupport.unpark(w);
        }
    }

    private Task<?> popLocal() {
        SplitDeque<Task<?>> d = deque;
        Task<?> t = d.pop();
        if (t != null && d.privateSize() > 0 && (d.isShareRequested() || idle.anyoneHungry())) {
            publish();
        }
        return t;
    }

    /**
     * Runs a task and counts it; then exposes the futures the task left latent, which must not
     * wait for frames that are gone. An Error propagates (it kills this worker's stack).
     */
    private void runTask(Task<?> t) {
        counters.tasksRun++;
        LatentStack ls = latent;
        long mark = ls.mark();
        t.run();
        if (ls.leftSince(mark)) {
            ls.endRegion(mark);
        }
    }

    /**
     * For the futures and loops runtime: pushes a task other workers may take (a promoted future,
     * a loop's team member or split-off range) on this worker's deque, and makes it stealable at
     * once if {@code shareNow}, otherwise only if someone is hungry (like a fork). Only the worker
     * itself may call this.
     *
     * @param t        the task
     * @param shareNow share the private region and wake a worker if one is parked
     */
    public void pushForOthers(Task<?> t, boolean shareNow) {
        if (Thread.currentThread() != this) {
            throw new IllegalStateException("pushForOthers called from " + Thread.currentThread().getName()
                    + ", not from worker " + getName());
        }
        SplitDeque<Task<?>> d = deque;
        d.push(t);
        if (shareNow || d.isShareRequested() || idle.anyoneHungry()) {
            shareAll();
        }
    }

    /**
     * For the loops runtime: makes every task this worker pushed and still holds privately
     * stealable now, and wakes a worker if one is parked. A worker running its own share of a loop
     * calls this between pieces when {@link #isPrivateWorkWanted()} says a worker became hungry
     * after the loop's tasks were pushed (for example one that was finishing the previous loop's
     * member), so that they do not stay private until its share ends. Only the worker itself may
     * call this.
     */
    public void shareWork() {
        if (Thread.currentThread() != this) {
            throw new IllegalStateException("shareWork called from " + Thread.currentThread().getName()
                    + ", not from worker " + getName());
        }
        shareAll();
        WorkDescriptor wd = installed();
        if (wd != null && wd.holdsPrivateMembers()) {
            wd.open();                       // a volatile write: the Dekker half of signalWork
            signalShared();
        }
    }

    private void shareAll() {
        SplitDeque<Task<?>> d = deque;
        int shared = 0;
        for (int n; d.privateSize() > 0 && (n = d.share()) > 0; ) {
            shared += n;
        }
        if (shared > 0) {
            signalShared();
        }
    }

    /**
     * True if another worker would take work from this one now: a thief asked, or some worker is
     * idle or searching, and this deque offers nothing stealable. A few plain loads; for adaptive
     * splitting (auto-scheduled loops). Only meaningful on the worker itself.
     *
     * @return whether splitting off work would feed someone
     */
    public boolean isWorkWanted() {
        SplitDeque<Task<?>> d = deque;
        return (d.isShareRequested() || idle.anyoneHungry()) && !d.hasShared();
    }

    /**
     * True if this worker holds tasks it pushed that no other worker can see yet (its deque's
     * private region). One plain load of the worker's own fields. Only meaningful on the worker
     * itself.
     *
     * @return whether {@link #shareWork()} would have something to share
     */
    public boolean holdsPrivateWork() {
        WorkDescriptor wd;
        return deque.privateSize() > 0 || (wd = installed()) != null && wd.holdsPrivateMembers();
    }

    /**
     * True if this worker holds private tasks or private members of its descriptor and another
     * worker would take them now (a thief asked or found the descriptor private, or some worker is
     * idle or searching). Reads the pool's idle word only when there is something to share. Only
     * meaningful on the worker itself.
     *
     * @return whether to call {@link #shareWork()}
     */
    public boolean isPrivateWorkWanted() {
        SplitDeque<Task<?>> d = deque;
        WorkDescriptor wd = installed();
        boolean privateMembers = wd != null && wd.holdsPrivateMembers();
        if (!privateMembers && d.privateSize() == 0) {
            return false;
        }
        return d.isShareRequested() || idle.anyoneHungry() || privateMembers && wd.isWanted();
    }

    /** Owner: the descriptor in this worker's slot, or null (a plain load of its own field). */
    WorkDescriptor installed() {
        return (WorkDescriptor) DESCRIPTOR.get(this);
    }

    /** Owner: offers {@code wd} in this worker's slot (a release store; see {@link WorkDescriptor}). */
    void install(WorkDescriptor wd) {
        DESCRIPTOR.setRelease(this, wd);
    }

    /** Owner: empties the slot; thieves that still hold its descriptor find nothing left to claim. */
    void uninstall() {
        DESCRIPTOR.setRelease(this, (WorkDescriptor) null);
    }

    /** Another thread: the descriptor this worker offers, or null (an acquire load). */
    WorkDescriptor offered() {
        return (WorkDescriptor) DESCRIPTOR.getAcquire(this);
    }

    /**
     * Claims a member of {@code v}'s offered descriptor, if it has one to give (or marks it wanted
     * if it is still private).
     *
     * @return the descriptor's completion, with the member in {@link #foundMember}, or null
     */
    private Task<?> claimOffered(Worker v) {
        WorkDescriptor wd = v.offered();
        if (wd != null) {
            int k = wd.tryClaim();
            if (k >= 0) {
                foundMember = k;
                counters.steals++;
                return wd.completion();
            }
        }
        return null;
    }

    /**
     * Runs what {@link #scan} or {@link #claimOffered} found: a stolen task or a claimed member.
     *
     * <p>From the main loop ({@code searchAfterMember}), after a claimed member this worker counts
     * itself searching again <em>before</em> it reports the member finished. The owner that reads
     * the descriptor's count at zero then also sees a hungry worker (both are atomic operations on
     * this thread, in that order), so its next loop opens its descriptor at install instead of
     * keeping it private until the owner's next check, an eighth of a static block later. Before
     * this order the owner won that race in three static LUAppl loops of four (the descriptor was
     * opened at install in 24% of them, now in all), which cost static ~10% of its time at two
     * workers (docs/PERFORMANCE.md, "A helper that is hungry before it reports").
     *
     * @param searchAfterMember the main loop's order; false in a join, which is not a search
     * @return whether this worker now counts as searching
     */
    private boolean runFound(Task<?> t, boolean searchAfterMember) {
        if (t instanceof WorkDescriptor.Completion c) {
            runMemberOf(c.descriptor, foundMember, searchAfterMember);
            return searchAfterMember;
        }
        runStolen(t);
        return false;
    }

    /**
     * Runs member {@code k} of another worker's descriptor, advertising the descriptor's completion
     * as this worker's running steal (its owner's join helps with what the member creates), then
     * reports it finished.
     *
     * @param searchBeforeFinish count this worker searching before the report (the main loop's
     *                           order, see {@link #runFound(Task, boolean)}); false in a join
     */
    private void runMemberOf(WorkDescriptor wd, int k, boolean searchBeforeFinish) {
        Task<?> outer = runningSteal;
        int outerLatentFloor = latent.enterSteal();
        int outerDeferRoom = deferRoom;
        boolean outerRoomLent = roomLent;
        deferRoom = deferDepth;
        roomLent = false;
        // Release stores, not volatile ones: readers (joiners' thiefOf) only need what was written
        // before; the fence of a volatile store would sit on the path from a claim to the member.
        RUNNING_STEAL.setRelease(this, wd.completion());
        counters.tasksRun++;
        LatentStack ls = latent;
        long mark = ls.mark();
        try {
            wd.runMember(k, null);
            if (ls.leftSince(mark)) {
                ls.endRegion(mark);
            }
        } finally {
            RUNNING_STEAL.setRelease(this, outer);
            latent.exitSteal(outerLatentFloor);
            deferRoom = outerDeferRoom;
            roomLent = outerRoomLent;
            if (searchBeforeFinish) {
                idle.startSearching();
            }
            wd.finishMember();
        }
    }

    /**
     * True if this worker's deque holds tasks other workers can steal now.
     *
     * @return whether it offers work
     */
    public boolean offersWork() {
        return deque.hasShared();
    }

    /** Before parking: ask every worker of the pool (and non-worker threads) to expose latent futures. */
    private void requestLatentWork() {
        for (int i = 0, n = pool.workerCount(); i < n; i++) {
            Worker w = pool.workerAt(i);
            if (w != null && w != this) {
                w.latent.requestOne();
            }
        }
        if (pool.isDefault()) {
            LatentStack.requestExternal();
        }
    }

    /**
     * Runs a task taken from another worker (or the submission queue), advertising it to joiners
     * together with its floors: the deque index and the latent-stack position at which the work
     * this task creates begins (see {@link #awaitFuture}).
     */
    private void runStolen(Task<?> t) {
        Task<?> outer = runningSteal;
        int outerLatentFloor = latent.enterSteal();
        int outerDeferRoom = deferRoom;
        boolean outerRoomLent = roomLent;
        deferRoom = deferDepth;
        roomLent = false;
        t.stealFloor = deque.topIndex();
        long promotedAt = t.promotedAt();
        if (promotedAt != 0L) {
            int lag = (int) Math.min(STEAL_LAG_CAP_NANOS, Math.max(0L, System.nanoTime() - promotedAt));
            stealLagNanos += (lag - stealLagNanos) >> 3;
        }
        runningSteal = t;                    // volatile: publishes the floor to waiters that read it
        try {
            runTask(t);
        } finally {
            runningSteal = outer;
            latent.exitSteal(outerLatentFloor);
            deferRoom = outerDeferRoom;
            roomLent = outerRoomLent;
        }
    }

    /**
     * Waits, as a future's toucher, for a task another thread runs, helping only with that task's
     * own computation. Only the worker itself may call this.
     *
     * <p><b>Why not help with anything.</b> A helped task runs on top of the waiter's suspended
     * frames. Fork/join is strict — a task joins only what it forked — so whatever a joiner helps
     * with can never wait for a frame below it. Futures are not: a future's body may touch any
     * future it can reach, for example a sibling that is running inline right below it on this
     * very stack, which can only finish after the helped body returns: a deadlock. So a toucher
     * takes only work that the awaited task's computation created: elements the thief pushed, at
     * or above the deque index where it started the task ({@link Task#stealFloor}), while the task
     * is still its innermost steal (checked again after the steal; if the check fails the element
     * is handed to the pool instead of being run here). The thief cooperates by putting on its
     * deque only promotions of futures created inside that task (see {@code LatentStack}'s floor).
     * Thieves take the oldest shared element first, so an element the thief shared <em>before</em>
     * it started the task, still at the base, would hide everything above it; if that element is
     * dead — a promoted future its toucher has since claimed and run, which whoever takes it drops
     * ({@link Task#isStale}) — the waiter removes it ({@link SplitDeque#stealIf}) and looks again.
     * Without that, the thief's deque also keeps "offering work", so the thief promotes nothing
     * more for the waiter's requests, and the waiter parked until the task ended (measured on
     * woven Fib at two workers: most of the waiters' parked time).
     * Otherwise the waiter serves requests for its own latent futures (so others can take them),
     * asks the thief to expose work, spins, yields, and then parks — woken by the task's completion,
     * by the thief sharing work ({@link #parkedToucher}, set before a last look at the thief's deque,
     * read by the thief after it shares: one of the two sees the other), or by a timeout that
     * grows to 1 ms.
     *
     * <p><b>Patience.</b> Taking part of {@code t} from the thief, and asking it to expose some, is a
     * split: a request, a promotion and a steal, and a new dependency (the thief may finish first
     * and wait for the piece taken). When {@code t} is nearly done that only adds cost — woven
     * TreeSum-1K at two workers took ~6 steals per 4–8 µs sum, a cascade of ever smaller pieces,
     * where one would do. So the waiter first only spins (serving its own requests) for
     * {@link #splitPatienceNanos} of the thief's {@link #stealLagNanos}: about what a split costs,
     * measured (the ski-rental rule: wait until waiting has cost what a split would, then split).
     * See docs/ARCHITECTURE.md, "Patience before a split".
     *
     * @param t the awaited task, claimed by another thread
     * @throws IllegalStateException if called from another thread
     */
    public void awaitFuture(Task<?> t) {
        if (Thread.currentThread() != this) {
            throw new IllegalStateException("awaitFuture called from " + Thread.currentThread().getName()
                    + ", not from worker " + getName());
        }
        Worker thief = null;
        Task.WaitNode node = null;
        long start = System.nanoTime();
        long helped = 0L;
        long patience = -1L;
        boolean interrupted = false;
        for (int round = 0; !t.isDone(); ) {
            latent.serviceIfRequested();
            if (thief == null || thief.runningSteal != t) {
                thief = thiefOf(t);
            }
            if (thief != null) {
                if (patience < 0L) {
                    patience = splitPatienceNanos(thief.stealLagNanos);
                }
                if (System.nanoTime() - start < patience) {
                    Thread.onSpinWait();            // not yet worth a split: the task may be nearly done
                    continue;
                }
                Task<?> u = thief.deque.stealAtOrAbove(t.stealFloor);
                if (u != null) {
                    counters.steals++;
                    if (thief.runningSteal == t) {
                        counters.helpingJoins++;
                        long h = System.nanoTime();
                        runStolen(u);
                        helped += System.nanoTime() - h;
                        round = 0;
                    } else {
                        pool.handOff(u);      // the thief moved on: not provably part of t's computation
                    }
                    continue;
                }
                if (thief.deque.stealIf(Task::isStale) != null) {
                    continue;                       // a dead entry at the base hid what lies above it
                }
                WorkDescriptor wd = thief.offered();
                if (wd != null && wd.belongsTo(t) && thief.runningSteal == t) {
                    int k = wd.tryClaim();          // a loop t's computation started
                    if (k >= 0) {
                        counters.steals++;
                        counters.helpingJoins++;
                        long h = System.nanoTime();
                        runMemberOf(wd, k, false);
                        helped += System.nanoTime() - h;
                        round = 0;
                        continue;
                    }
                }
                thief.latent.requestOne();
            }
            if (++round < SPIN_ROUNDS) {
                Thread.onSpinWait();
            } else if (round < 2 * SPIN_ROUNDS) {
                Thread.yield();
            } else {
                if (node == null) {
                    node = new Task.WaitNode(this);
                    t.registerWaiter(node);
                    continue;                       // re-check isDone after registering
                }
                Worker v = thief;
                if (v != null) {
                    v.parkedToucher = this;         // then look once more: the thief shares, then reads it
                    if (v.deque.hasSharedAtOrAbove(t.stealFloor)) {
                        v.parkedToucher = null;
                        continue;
                    }
                }
                counters.parks++;
                LockSupport.parkNanos(t, Math.min(1_000_000L, 10_000L << Math.min(7, (round - 2 * SPIN_ROUNDS) >> 3)));
                interrupted |= Thread.interrupted();   // cleared so parking blocks; set again below
            }
        }
        counters.waitNanos += System.nanoTime() - start - helped;
        if (interrupted) {
            interrupt();                            // a touch is not interruptible, but keeps the status
        }
    }

    /**
     * How long a toucher waits for a task that a thief runs before it asks the thief for a split
     * ({@link #awaitFuture}): {@link #PATIENCE_PER_LAG} times the thief's steal lag, within
     * [{@link #MIN_PATIENCE_NANOS}, {@link #SPIN_NANOS}].
     *
     * @param stealLagNanos the thief's {@link #stealLagNanos()}
     * @return the patience in ns
     */
    static long splitPatienceNanos(int stealLagNanos) {
        return Math.min(SPIN_NANOS, Math.max(MIN_PATIENCE_NANOS, (long) PATIENCE_PER_LAG * stealLagNanos));
    }

    /**
     * How long the promoted futures this worker stole had waited for it, on average (ns; see the
     * field). Racy; for the runtime's waiters and for tests.
     *
     * @return the average lag in ns, 0 before the first such steal
     */
    int stealLagNanos() {
        return stealLagNanos;
    }

    /** The worker currently running {@code t} as a stolen task, or null. O(workers), once per join. */
    private Worker thiefOf(Task<?> t) {
        for (int i = 0, n = pool.workerCount(); i < n; i++) {
            Worker w = pool.workerAt(i);
            if (w != null && w != this && w.runningSteal == t) {
                return w;
            }
        }
        return null;
    }

    /**
     * Removes {@code t} from the top of this worker's deque if it is there and nobody took it.
     * Only the worker itself may call this.
     *
     * @param t a task this worker forked
     * @return true if the caller now owns {@code t} and must run it (or drop it)
     * @throws IllegalStateException if called from another thread
     */
    public boolean tryUnfork(Task<?> t) {
        if (Thread.currentThread() != this) {
            throw new IllegalStateException("tryUnfork called from " + Thread.currentThread().getName()
                    + ", not from worker " + getName());
        }
        return barrier.unfork(this, t);
    }

    /** The body of {@link #tryUnfork}, called through the {@link CompilationBarrier}. */
    boolean unforkOwn(Task<?> t) {
        return deque.popIf(t);
    }

    /**
     * Owner, before it parks: its {@link ParkBinding}, prepared from its CPU affinity the first
     * time its pool binds parked workers, not before — preparing reads the affinity through the
     * FFM API, and a JVM without {@code --enable-native-access} prints a warning at the first
     * such call, which a pool that does not bind must not cause. Not while pinned: its affinity
     * is then one CPU, not the set it returns to.
     */
    ParkBinding preparedParkBinding() {
        if (!parkBindingPrepared && pool.isParkBinding() && pinnedCpu() < 0) {
            parkBindingPrepared = true;
            parkBinding = ParkBinding.ofCurrentThread();   // final fields: safe for wakers that read it
        }
        return parkBinding;
    }

    // ------------------------------------------------------------------ main loop

    private void runLoop() {
        boolean searching = false;
        long lastEnd = 0L;                          // when the previous task ended, if none came between
        while (!pool.isStopping()) {
            Thread.interrupted();                   // an interrupt a task left behind is not the next task's
            followPinning();
            Task<?> t = popLocal();
            if (t == null) {
                lastEnd = 0L;
                if (index >= pool.parallelism() && pool.retire(this)) {
                    closeQuietWindow();
                    if (searching) {
                        idle.stopSearching(true);   // pass on a wake-up meant for a worker that stays
                    }
                    return;
                }
                if (!searching) {
                    idle.startSearching();
                    searching = true;
                }
                long searchStart = System.nanoTime();
                t = search();
                if (t == null) {
                    requestLatentWork();
                    searching = idle.parkAfterSearch(this);
                    continue;
                }
                idle.stopSearching(true);
                followPinning();
                long start = System.nanoTime();
                boolean promoted = t.promotedAt() != 0L;
                counters.taskStarted(start);
                searching = runFound(t, true);
                lastEnd = System.nanoTime();
                counters.taskEnded(start, lastEnd);
                if (promoted) {
                    weighPiece(start - searchStart, lastEnd - start, lastEnd);
                }
                continue;
            }
            if (searching) {
                idle.stopSearching(true);           // counted itself searching after a member; found a local task
                searching = false;
            }
            // Back-to-back local tasks: one clock read each (the previous end is this start).
            long start = lastEnd != 0L ? lastEnd : System.nanoTime();
            counters.taskStarted(start);
            runTask(t);
            lastEnd = System.nanoTime();
            counters.taskEnded(start, lastEnd);
        }
        if (searching) {
            idle.stopSearching(false);
        }
        closeQuietWindow();
        cancelLocalTasks();
    }

    /** Before a task from the main loop: applies a pinning change made since the last one. */
    private void followPinning() {
        if (pool.pinningEpoch() != pinningSeen) {
            applyPinning();
        }
    }

    /** Pins this thread to its CPU, or restores its earlier affinity, as the pool now asks. */
    private void applyPinning() {
        pinningSeen = pool.pinningEpoch();
        boolean pin = pool.isWorkerPinning();
        try {
            BitSet all = pool.pinnableCpus();
            if (pin) {
                int cpu = SpindlePool.cpuFor(index, all);
                if (cpu != pinnedCpu) {
                    BitSet one = new BitSet();
                    one.set(cpu);
                    CpuAffinity.setCurrentThread(one);
                    pinnedCpu = cpu;
                }
            } else if (pinnedCpu >= 0) {
                CpuAffinity.setCurrentThread(all);
                pinnedCpu = -1;
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, () -> getName() + " could not " + (pin ? "pin itself" : "unpin itself")
                    + " and runs as it was: " + e.getMessage(), e);
        }
    }

    /**
     * The CPU this worker is pinned to ({@link SpindlePool#setWorkerPinning}), or -1.
     *
     * @return the CPU number or -1
     */
    public int pinnedCpu() {
        return pinnedCpu;
    }

    /**
     * After a promoted piece from the main loop: opens a quiet window if the piece was too small
     * to pay for its search, closes it otherwise ({@link RequestBackoff}).
     */
    private void weighPiece(long searchedNanos, long ranNanos, long now) {
        long quiet = RequestBackoff.quietNanos(searchedNanos, ranNanos);
        if (quiet > 0L) {
            quietUntil = now + quiet;
            counters.quietWindows++;
            countQuiet(true);
        } else {
            closeQuietWindow();
        }
    }

    /** Ends this worker's quiet window, if one is open, and uncounts it from the pool's. */
    private void closeQuietWindow() {
        quietUntil = 0L;
        countQuiet(false);
    }

    /** Keeps the pool's count of quiet workers ({@link SpindlePool#othersQuiet}) in step with this worker's window. */
    private void countQuiet(boolean quiet) {
        if (quiet != quietCounted) {
            quietCounted = quiet;
            pool.quietChanged(quiet ? 1 : -1);
        }
    }

    /** True unless this worker is in a quiet window (which it closes once it has passed). */
    private boolean mayAskForLatentWork() {
        long q = quietUntil;
        if (q == 0L) {
            return true;
        }
        if (System.nanoTime() - q >= 0L) {
            closeQuietWindow();
            return true;
        }
        return false;
    }

    /** Spins over the victims a bounded number of rounds, yielding towards the end. */
    private Task<?> search() {
        long start = 0L;
        for (int round = 0; ; round++) {
            Task<?> t = scan(mayAskForLatentWork());
            if (t != null) {
                return t;
            }
            if (pool.isStopping()) {
                return null;
            }
            if (round < SPIN_ROUNDS) {
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            if (start == 0L) {
                start = now;
            }
            long waited = now - start;
            if (waited < SPIN_NANOS) {
                Thread.onSpinWait();
            } else if (waited < YIELD_NANOS) {
                Thread.yield();
            } else {
                return null;
            }
        }
    }

    /**
     * One pass: every other worker's offered descriptor and deque from a random start, then the
     * submission queue. Run what it returns with {@link #runFound(Task, boolean)}.
     *
     * @param ask whether to ask the latent stack of each worker that offers nothing to promote
     *            its oldest latent future (not in a quiet window, see {@link RequestBackoff})
     */
    private Task<?> scan(boolean ask) {
        int n = pool.workerCount();
        if (n > 1) {
            int r = seed;
            r ^= r << 13;
            r ^= r >>> 17;
            r ^= r << 5;
            seed = r;
            int start = (r & 0x7fffffff) % n;
            for (int k = 0; k < n; k++) {
                int i = start + k;
                if (i >= n) {
                    i -= n;
                }
                if (i == index) {
                    continue;
                }
                Worker v = pool.workerAt(i);
                if (v == null || v.retired) {
                    continue;
                }
                // A running loop's members first: its owner waits for them at the loop's end,
                // while older deque tasks wait only for the owner's next pop.
                Task<?> t = claimOffered(v);
                if (t != null) {
                    return t;
                }
                t = v.deque.steal();
                if (t != null) {
                    counters.steals++;
                    return t;
                }
                counters.failedSteals++;
                if (ask) {
                    v.latent.requestOne();
                }
            }
        }
        Task<?> t = pool.submissions().poll();
        if (t != null) {
            counters.submissionsTaken++;
        }
        return t;
    }

    private void cancelLocalTasks() {
        for (Task<?> t; (t = deque.pop()) != null; ) {
            t.cancel(false);
        }
    }

    // ------------------------------------------------------------------ helping join

    /** Waits for {@code t} on this worker, running other work meanwhile. */
    void helpJoin(Task<?> t) {
        if (t.isDone()) {
            return;
        }
        if (deque.popIf(t)) {
            runTask(t);
            return;
        }
        int idleRounds = 0;
        long idleSince = 0L;
        long start = System.nanoTime();
        long helped = 0L;
        Worker thief = null;
        while (!t.isDone()) {
            if (thief == null || thief.runningSteal != t) {
                thief = thiefOf(t);
            }
            Task<?> u = null;
            boolean stolen = false;
            if (thief != null) {
                u = claimOffered(thief);              // a loop the awaited computation started
                if (u == null && (u = thief.deque.steal()) != null) {
                    counters.steals++;
                }
                stolen = u != null;
            }
            if (u == null) {
                latent.serviceIfRequested();
                u = popLocal();
            }
            if (u == null && latent.size() > 0) {
                latent.exposeAll("its worker would wait in a join");   // run our own latent futures rather than idle
                u = popLocal();
            }
            if (u == null) {
                u = scan(true);
                stolen = u != null;
            }
            if (u != null) {
                counters.helpingJoins++;
                long h = System.nanoTime();
                if (stolen) {
                    runFound(u, false);
                } else {
                    runTask(u);
                }
                helped += System.nanoTime() - h;
                idleRounds = 0;
                idleSince = 0L;
                continue;
            }
            if (++idleRounds < SPIN_ROUNDS) {
                Thread.onSpinWait();
                continue;
            }
            long now = System.nanoTime();
            if (idleSince == 0L) {
                idleSince = now;
            }
            if (now - idleSince < SPIN_NANOS) {
                Thread.onSpinWait();
                continue;
            }
            if (now - idleSince < YIELD_NANOS) {
                Thread.yield();
                continue;
            }
            idleSince = 0L;
            idleRounds = 0;
            requestLatentWork();
            if (idle.park(this, t)) {
                // Woken by new work as a searcher: look once, then hand the search on.
                Task<?> w = t.isDone() ? null : scan(true);
                idle.stopSearching(w != null);
                if (w != null) {
                    counters.helpingJoins++;
                    long h = System.nanoTime();
                    runFound(w, false);
                    helped += System.nanoTime() - h;
                }
            }
        }
        counters.waitNanos += System.nanoTime() - start - helped;
    }

    // ------------------------------------------------------------------ statistics

    WorkerStatistics statistics() {
        WorkerCounters c = counters;
        long made = madeInPlace;
        return new WorkerStatistics(index, c.tasksRun, c.steals, c.failedSteals, c.parks, c.helpingJoins, c.submissionsTaken, c.quietWindows,
                c.busyNanos(System.nanoTime()), c.waitNanos, FutureCounts.of(latent.counts()).plus(new FutureCounts(made, made, 0, 0)));
    }
}
