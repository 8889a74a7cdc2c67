package dev.spindle.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How workers go to sleep and how new work wakes them, with no lost wake-up and no CPU used by
 * an idle pool.
 *
 * <h2>State</h2>
 * One word, {@code ctl}: the number of <em>parked</em> workers (high 32 bits) and the number of
 * <em>searching</em> workers (low 32 bits) — workers that have no task and are scanning other deques.
 * Each worker also has its own {@code parkState}: RUNNING, PARKED_IDLE (nothing to do) or
 * PARKED_JOIN (waiting for a task it joined, nothing else runnable).
 *
 * <h2>Protocol</h2>
 * <ul>
 * <li><b>Producers.</b> Whoever makes work visible to other workers (a worker sharing part of its
 * deque, an external submission) does so with a volatile write or CAS and then calls
 * {@link #signalWork()}, which reads {@code ctl}: if somebody is parked and nobody is searching it
 * wakes one parked worker, moving it from parked to searching in the same CAS. If a worker is
 * searching it will find the work, so nobody else is woken (no thundering herd).</li>
 * <li><b>Searchers.</b> A worker that finds work while searching stops searching; if it was the
 * last searcher it calls {@link #signalWork()} so a further worker comes looking (the wake-up
 * propagates as long as work keeps being found, as in Go's scheduler).</li>
 * <li><b>Parking.</b> A worker that found nothing after spinning sets its {@code parkState}, moves
 * itself from the searching count to the parked count in one atomic add (never counted as
 * neither, see {@link #parkAfterSearch}), then re-scans every deque's shared region and the submission
 * queue (volatile reads) and parks only if that re-scan finds nothing. While it sleeps it is bound
 * to the CPU it parked on, so that it wakes there and not on its waker's CPU ({@link ParkBinding};
 * affinity only, after the re-scan, so nothing below depends on it).</li>
 * </ul>
 *
 * <h2>Why no wake-up is lost</h2>
 * This is Dekker's pattern on volatile variables, whose accesses the Java Memory Model totally
 * orders. The producer writes work W then reads {@code ctl}; the parker writes {@code ctl} then
 * reads W. In the total order one of the two writes comes first, so either the parker's re-scan
 * sees W (it does not park) or the producer sees the parker counted (it wakes a parked worker —
 * perhaps another one, which is as good, because the woken worker searches). If the producer saw a
 * searcher instead, that searcher either finds work (and then, being the last searcher, wakes
 * another worker) or gives up — and giving up means decrementing the searching count, registering
 * as parked and re-scanning, all after the producer's write, so the re-scan sees W.
 *
 * <p>Retiring ({@link SpindlePool#setParallelism}) is the same pattern: the pool writes the
 * parallelism and then wakes every parked worker above it; an idle parker writes its
 * {@code parkState} and then re-reads the parallelism, so a worker whose slot is no longer wanted
 * either sees that and returns to retire, or is seen parked and woken.
 *
 * <p>Work held privately by a busy worker is not visible; that worker shares it at its push if
 * {@code ctl} then shows an idle or searching worker, else at a later push or pop that does (see
 * {@link Worker#push}). So an idle worker must show in {@code ctl} from the moment it starts
 * searching until it has work again: searching, parked, or woken (counted searching by the CAS
 * that wakes it), each change one atomic add. A worker counted as neither, even for the few
 * instructions between two adds, lets a push that reads {@code ctl} then keep its task private,
 * and the worker sleep past it until the owner's next push or pop.
 */
final class IdleProtocol {

    static final int RUNNING = 0;
    static final int PARKED_IDLE = 1;
    static final int PARKED_JOIN = 2;
    /** Woken by {@link #signalWork()}: already counted as searching, in the same CAS that woke it. */
    static final int WOKEN = 3;

    private static final long SEARCH_UNIT = 1L;
    private static final long PARK_UNIT = 1L << 32;

    private static final VarHandle CTL;
    private static final VarHandle ACTIVATIONS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CTL = l.findVarHandle(IdleProtocol.class, "ctl", long.class);
            ACTIVATIONS = l.findVarHandle(IdleProtocol.class, "activations", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SpindlePool pool;
    @SuppressWarnings("unused") private long p0, p1, p2, p3, p4, p5, p6;
    private volatile long ctl;
    /** Counts transitions out of a parked state; lets termination detect a consistent snapshot. */
    private volatile long activations;
    @SuppressWarnings("unused") private long q0, q1, q2, q3, q4, q5, q6;

    IdleProtocol(SpindlePool pool) {
        this.pool = pool;
    }

    /** True if some worker is parked or searching: a busy worker should make its work visible. */
    boolean anyoneHungry() {
        return ctl != 0L;
    }

    /**
     * True if some worker is parked (idle, or in a join with nothing to run): unlike a searcher, it
     * asks nobody for work until new work wakes it.
     */
    boolean anyoneParked() {
        return (ctl >>> 32) != 0L;
    }

    long activations() {
        return activations;
    }

    void startSearching() {
        CTL.getAndAdd(this, SEARCH_UNIT);
    }

    /**
     * Stops searching.
     *
     * @param foundWork whether the search found a task
     */
    void stopSearching(boolean foundWork) {
        long c = (long) CTL.getAndAdd(this, -SEARCH_UNIT);
        if (foundWork && (int) c == 1) {
            signalWork();
        }
    }

    /** Called after work became visible: wakes a parked worker if nobody is searching. */
    void signalWork() {
        long c = ctl;
        if ((c >>> 32) == 0L || (int) c != 0) {
            return;
        }
        wakeOne();
    }

    /**
     * Wakes one parked worker. A worker waking another prefers one that is not bound, while parked,
     * to the CPU the waker runs on ({@link ParkBinding}): woken there, it would share that CPU with
     * its waker. If every parked worker is bound there, the one it wakes is first steered to the
     * other CPUs.
     */
    private void wakeOne() {
        int n = pool.workerCount();
        Thread caller = Thread.currentThread();
        boolean fromWorker = caller instanceof Worker cw && cw.pool == pool;
        int start = (int) (caller.threadId() * 0x9E3779B9L) & 0x7fffffff;
        int myCpu = -1;
        for (int pass = 0; pass < 2; pass++) {
            for (int k = 0; k < n; k++) {
                Worker w = pool.workerAt((start + k) % n);
                if (w == null) {
                    continue;
                }
                int s = w.parkState;
                if (s != PARKED_IDLE && s != PARKED_JOIN) {
                    continue;
                }
                int bound = fromWorker ? w.parkBinding.boundCpu() : -1;
                if (bound >= 0 && myCpu < 0) {
                    myCpu = ParkBinding.currentCpu();
                }
                boolean beside = bound >= 0 && bound == myCpu;
                if (pass == 0 && beside) {
                    continue;                       // first look for one that wakes elsewhere
                }
                if (w.casParkState(s, WOKEN)) {
                    if (beside) {
                        w.parkBinding.steerAwayFrom(myCpu);
                    }
                    CTL.getAndAdd(this, SEARCH_UNIT - PARK_UNIT);
                    ACTIVATIONS.getAndAdd(this, 1L);
                    LockSupport.unpark(w);
                    return;
                }
            }
            if (myCpu < 0) {
                return;                             // nobody was skipped: no second pass needed
            }
        }
    }

    /** Wakes every parked worker (shutdown, termination). */
    void wakeAll() {
        wakeFrom(0);
    }

    /** Wakes every parked worker whose index is {@code from} or more (retiring workers). */
    void wakeFrom(int from) {
        for (int i = from, n = pool.workerCount(); i < n; i++) {
            Worker w = pool.workerAt(i);
            if (w == null) {
                continue;
            }
            int s = w.parkState;
            if ((s == PARKED_IDLE || s == PARKED_JOIN) && w.casParkState(s, RUNNING)) {
                CTL.getAndAdd(this, -PARK_UNIT);
                ACTIVATIONS.getAndAdd(this, 1L);
            }
            LockSupport.unpark(w);
        }
    }

    /** An idle worker (not one waiting in a join) whose slot the pool no longer wants. */
    private boolean retiring(Worker w, Task<?> awaited) {
        return awaited == null && w.index >= pool.parallelism();
    }

    /**
     * Parks the calling worker until new work may exist, or until {@code awaited} completes.
     *
     * @param w        the calling worker
     * @param awaited  the task a join waits for, or null for a worker with nothing to do
     * @return true if the worker was woken as a searcher and must later call
     *         {@link #stopSearching(boolean)}
     */
    boolean park(Worker w, Task<?> awaited) {
        return park(w, awaited, PARK_UNIT);
    }

    /**
     * Parks a worker that was searching and found nothing: it stops searching and counts itself
     * parked in one step, so that {@code ctl} always counts it as one or the other. Were it counted
     * as neither for a moment, a busy worker's push in that moment would read "nobody hungry" and
     * keep its task private, where this worker's re-check cannot see it: the task waited for its
     * owner's next push or pop while this worker slept (with two adds, 11 and 14 of 20,000 forks
     * followed by a leaf that neither pushes nor pops ran only at their join; docs/ARCHITECTURE.md
     * §3).
     *
     * @param w the calling worker, counted as searching
     * @return as {@link #park(Worker, Task)}
     */
    boolean parkAfterSearch(Worker w) {
        return park(w, null, PARK_UNIT - SEARCH_UNIT);
    }

    private boolean park(Worker w, Task<?> awaited, long announce) {
        int mode = awaited == null ? PARKED_IDLE : PARKED_JOIN;
        w.setParkState(mode);
        CTL.getAndAdd(this, announce);
        Task.WaitNode node = null;
        if (awaited != null) {
            node = new Task.WaitNode(w);
            awaited.registerWaiter(node);
        }
        // Dekker re-check: after announcing ourselves, look again. An idle worker whose slot the
        // pool no longer wants does not park: setParallelism writes the parallelism, then wakes
        // the parked workers above it; we wrote parkState, then read the parallelism.
        boolean stay = !(awaited != null && awaited.isDone()) && !pool.hasVisibleWork() && !pool.isStopping()
                && !retiring(w, awaited);
        if (stay && awaited == null && pool.isShutdown()) {
            pool.tryTerminate();
            stay = !pool.isStopping();
        }
        if (stay) {
            w.counters.parks++;
            boolean bound = w.preparedParkBinding().bind(w);  // wake up on this CPU, not the waker's (ParkBinding)
            boolean interrupted = false;
            while (w.parkState == mode) {
                if (awaited != null && awaited.isDone() || pool.isStopping() || retiring(w, awaited)) {
                    break;
                }
                LockSupport.park(pool);
                interrupted |= Thread.interrupted();   // cleared so park blocks again
            }
            if (bound) {
                w.parkBinding.unbind(w);
            }
            if (interrupted && awaited != null) {
                w.interrupt();      // a join is not interruptible but keeps the status of the task that waits;
            }                       // an idle worker drops it (no task of its own to keep it for)
        }
        if (w.parkState == mode && w.casParkState(mode, RUNNING)) {
            CTL.getAndAdd(this, -PARK_UNIT);
            ACTIVATIONS.getAndAdd(this, 1L);
            return false;
        }
        // Someone else moved us out of the parked state: signalWork (WOKEN, counted as a
        // searcher by the same CAS) or wakeAll (RUNNING).
        boolean searcher = w.parkState == WOKEN;
        w.setParkState(RUNNING);
        return searcher;
    }
}
