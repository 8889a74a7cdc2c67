package dev.spindle.runtime;

import dev.spindle.deque.SplitDeque;
import dev.spindle.future.UntouchedFailureHandler;
import dev.spindle.future.UntouchedFailures;
import dev.spindle.topology.CpuAffinity;
import dev.spindle.topology.Topology;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A work-stealing pool of worker threads: the one scheduler that fork/join, futures and loops
 * run on.
 *
 * <pre>{@code
 * try (SpindlePool pool = new SpindlePool(4)) {
 *     long n = pool.invoke(new Fib(30));          // a RecursiveTask
 *     Future<String> f = pool.submit(() -> "hi"); // an ExecutorService
 * }                                              // close() waits for submitted work
 * }</pre>
 *
 * <p>Each worker owns a {@link SplitDeque}; tasks forked by a worker go on its deque, tasks
 * submitted by other threads go through a shared submission queue that workers poll. Workers with
 * nothing to do steal from random victims, then park ({@link IdleProtocol}); an idle pool uses no
 * CPU. A task's exception reaches whoever joins it and never kills a worker; an {@link Error}
 * kills the worker that ran the task, and the pool starts a replacement that adopts its deque, so
 * no task is lost.
 *
 * <p>Lifecycle: {@link #shutdown()} rejects new external submissions
 * ({@link RejectedExecutionException}) while tasks already submitted, and tasks they fork, run to
 * completion; the pool terminates when it is quiescent. {@link #shutdownNow()} also cancels queued
 * tasks. {@link #close()} shuts down and waits. The {@link #defaultPool() default pool} ignores
 * shutdown and close.
 */
public final class SpindlePool extends AbstractExecutorService implements AutoCloseable {

    /** Largest number of workers a pool may have. */
    public static final int MAX_WORKERS = 32767;

    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;
    static final int TERMINATED = 3;

    private static final AtomicInteger POOL_IDS = new AtomicInteger();
    private static final VarHandle WORKERS = MethodHandles.arrayElementVarHandle(Worker[].class);
    private static final System.Logger LOG = System.getLogger(SpindlePool.class.getName());

    /** Worker slots, indexed by {@link Worker#index}; grow-only (replaced by a longer copy). */
    private volatile Worker[] workers;
    /** The target number of active workers: slots 0..parallelism-1 (see {@link #setParallelism}). */
    private volatile int parallelism;
    /** Whether workers pin themselves to one CPU each (see {@link #setWorkerPinning}). */
    private volatile boolean pinWorkers;
    /** Bumped by every {@link #setWorkerPinning}; a worker re-applies the policy when it differs. */
    private volatile int pinningEpoch;
    /** The CPUs workers are pinned among and restored to: the first pinning caller's affinity. */
    private volatile BitSet pinnableCpus;
    /** Whether a parked worker is bound to the CPU it parked on (see {@link #setParkBinding}). */
    private volatile boolean parkBinding;
    private final IdleProtocol idle;
    private final SubmissionQueue submissions = new SubmissionQueue();
    private final String namePrefix;
    private final ThreadGroup group;
    private final boolean isDefault;
    private volatile int runState;
    private final AtomicInteger pendingSubmissions = new AtomicInteger();
    private final AtomicLong workerDeaths = new AtomicLong();
    /** Workers in a quiet window ({@link RequestBackoff}): they ask no one for latent work. */
    private final AtomicInteger quietWorkers = new AtomicInteger();
    private final Object terminationLock = new Object();
    private final UntouchedFailures untouchedFailures = new UntouchedFailures();
    private int liveWorkers;

    /** Creates a pool with one worker per available processor. */
    public SpindlePool() {
        this(Runtime.getRuntime().availableProcessors());
    }

    /**
     * Creates a pool.
     *
     * @param workers number of worker threads, 1..{@value #MAX_WORKERS}
     * @throws IllegalArgumentException if workers is outside that range
     * @throws IllegalStateException    if {@code -Dspindle.parkBinding} is set to neither true nor
     *                                  false (see {@link #setParkBinding})
     */
    public SpindlePool(int workers) {
        this(workers, false);
    }

    SpindlePool(int workers, boolean isDefault) {
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be in 1.." + MAX_WORKERS + ", was " + workers);
        }
        this.isDefault = isDefault;
        this.parkBinding = ParkBinding.configuredDefault();
        this.namePrefix = isDefault ? "spindle-default-worker-" : "spindle-" + POOL_IDS.incrementAndGet() + "-worker-";
        this.group = Thread.currentThread().getThreadGroup();
        this.idle = new IdleProtocol(this);
        this.workers = new Worker[workers];
        this.parallelism = workers;
        for (int i = 0; i < workers; i++) {
            workers(i, new Worker(this, i, new SplitDeque<>(), null));
        }
        synchronized (terminationLock) {
            liveWorkers = workers;
        }
        for (int i = 0; i < workers; i++) {
            workerAt(i).start();
        }
    }

    private void workers(int i, Worker w) {
        WORKERS.setVolatile(workers, i, w);
    }

    /**
     * The shared default pool, created at first use with {@code -Dspindle.workers=N} workers
     * (default: available processors). Its workers are daemon threads; shutdown and close are
     * ignored.
     *
     * @return the default pool
     * @throws IllegalStateException if {@code spindle.workers} is not an integer in 1..32767
     */
    public static SpindlePool defaultPool() {
        return DefaultPool.get();
    }

    /**
     * The pool whose worker is running the calling thread, or null.
     *
     * @return the current pool or null
     */
    public static SpindlePool current() {
        return Thread.currentThread() instanceof Worker w ? w.pool : null;
    }

    // ------------------------------------------------------------------ package internals

    IdleProtocol idle() {
        return idle;
    }

    SubmissionQueue submissions() {
        return submissions;
    }

    ThreadGroup threadGroup() {
        return group;
    }

    String workerName(int index) {
        return namePrefix + index;
    }

    Worker workerAt(int i) {
        return (Worker) WORKERS.getAcquire(workers, i);
    }

    /** Number of worker slots, active and retired; every index below it may hold a worker. */
    int workerCount() {
        return workers.length;
    }

    /**
     * True if some worker is parked or searching for work: a hint for producers of work.
     *
     * @return whether a worker is idle
     */
    public boolean hasIdleWorkers() {
        return idle.anyoneHungry();
    }

    /**
     * True if tasks submitted from outside (or promoted by threads that are not workers) wait in
     * the pool's queue for a worker: a hint for producers — a worker that is idle now will find
     * them, so more need not be offered.
     *
     * @return whether submissions are queued
     */
    public boolean hasQueuedSubmissions() {
        return !submissions.isEmpty();
    }

    /**
     * True if some worker is parked — idle, or joining with nothing to run. A parked worker asks
     * no one for work until new shared work wakes it, so a producer that holds work privately and
     * sees this should share it. One volatile read.
     *
     * @return whether a worker is parked
     */
    public boolean hasParkedWorkers() {
        return idle.anyoneParked();
    }

    /**
     * True if every worker but one is in a quiet window ({@link RequestBackoff}): each has just
     * found that the latent work it was given did not pay for its search, and asks no one for
     * more until its window ends. The one left — the caller — then has no one to keep latent work
     * for, and {@link Worker#hasRoomToDefer} says so. One read of a counter the windows change.
     *
     * @return whether all other workers are quiet
     */
    boolean othersQuiet() {
        int quiet = quietWorkers.getOpaque();
        return quiet > 0 && quiet >= parallelism - 1;
    }

    /** Workers counted in a quiet window now (for tests and diagnostics). */
    int quietWorkers() {
        return quietWorkers.get();
    }

    /** A worker opened (+1) or closed (-1) a quiet window. */
    void quietChanged(int delta) {
        quietWorkers.getAndAdd(delta);
    }

    boolean isDefault() {
        return isDefault;
    }

    /**
     * The failures of this pool's futures that nobody touched yet; reported when the pool
     * terminates (for the default pool, at JVM exit), or sooner past the ledger's bound
     * ({@link UntouchedFailures}). For the futures runtime.
     *
     * @return the ledger
     */
    public UntouchedFailures untouchedFailures() {
        return untouchedFailures;
    }

    /**
     * Sets who receives the failures of futures nobody touched (default: a WARNING log).
     *
     * @param handler the handler
     * @throws NullPointerException if handler is null
     */
    public void setUntouchedFailureHandler(UntouchedFailureHandler handler) {
        untouchedFailures.setHandler(handler);
    }

    boolean isStopping() {
        return runState >= STOP;
    }

    /** Any work visible to a thief: a shared region, an open descriptor with members left, or the submission queue. */
    boolean hasVisibleWork() {
        if (!submissions.isEmpty()) {
            return true;
        }
        for (int i = 0; i < workers.length; i++) {
            Worker w = workerAt(i);
            if (w != null && w.deque.hasShared()) {
                return true;
            }
            WorkDescriptor wd;
            if (w != null && (wd = w.offered()) != null && wd.isClaimable()) {
                return true;
            }
        }
        return false;
    }

    /**
     * After shutdown: terminates if every worker is parked idle (so every deque is empty and no
     * task runs), no submission is queued or in flight, and no worker woke during the check.
     */
    void tryTerminate() {
        int rs = runState;
        if (rs == RUNNING || rs == TERMINATED) {
            return;
        }
        if (rs == SHUTDOWN) {
            long before = idle.activations();
            if (pendingSubmissions.get() != 0 || !submissions.isEmpty()) {
                return;
            }
            for (int i = 0; i < workers.length; i++) {
                Worker w = workerAt(i);
                if (w == null || w.retired) {
                    continue;                        // a retired worker's deque is empty
                }
                if (w.parkState != IdleProtocol.PARKED_IDLE || w.deque.sizeEstimate() != 0) {
                    return;
                }
            }
            if (idle.activations() != before || !submissions.isEmpty()) {
                return;
            }
        }
        synchronized (terminationLock) {
            if (runState < STOP) {
                runState = STOP;
            }
        }
        idle.wakeAll();
    }

    void onWorkerExit(Worker w, Throwable death) {
        if (death == null && w.retired) {
            return;                                  // accounted for by retire()
        }
        if (death != null && runState < STOP && w.latent.size() > 0) {
            w.latent.exposeAll("its worker died");     // into w's deque, which the replacement adopts
        }
        if (death != null && runState < STOP) {
            workerDeaths.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, () -> "Spindle worker " + w.getName()
                    + " died of an Error and is replaced; the Error was delivered to the joiners", death);
            Worker replacement = new Worker(this, w.index, w.deque, w);
            workers(w.index, replacement);
            replacement.start();
            return;
        }
        if (death != null) {
            workerDeaths.incrementAndGet();
        }
        synchronized (terminationLock) {
            if (--liveWorkers != 0) {
                return;
            }
        }
        untouchedFailures.reportAll();            // before close() and awaitTermination() return
        synchronized (terminationLock) {
            runState = TERMINATED;
            terminationLock.notifyAll();
        }
    }

    /** Submission from a thread that is not a worker of this pool. */
    void submitExternal(Task<?> t) {
        if (runState != RUNNING) {
            throw rejected(t);
        }
        pendingSubmissions.incrementAndGet();
        try {
            if (runState != RUNNING) {
                throw rejected(t);
            }
            submissions.offer(t);
        } finally {
            pendingSubmissions.decrementAndGet();
        }
        idle.signalWork();
    }

    /**
     * For the runtime: queues a task that must not run on the calling worker's stack (nor sit on
     * its deque) for whichever worker looks next — a promoted future of an outer frame, or a task
     * a waiting worker took but may not run. Never rejected: the task was already accepted.
     *
     * @param t the task
     */
    public void handOff(Task<?> t) {
        submissions.offer(t);
        idle.signalWork();
    }

    private RejectedExecutionException rejected(Object t) {
        return new RejectedExecutionException("pool is shut down, task rejected: " + t);
    }

    private void schedule(Task<?> t) {
        if (Thread.currentThread() instanceof Worker w && w.pool == this) {
            w.push(t);
        } else {
            submitExternal(t);
        }
    }

    // ------------------------------------------------------------------ public API

    /**
     * Runs a task in this pool and returns its result: on a worker of this pool the task runs
     * inline; from any other thread it is submitted and the caller blocks until it completes.
     *
     * @param task the task
     * @param <T>  result type
     * @return the task's result
     */
    public <T> T invoke(Task<T> task) {
        Objects.requireNonNull(task, "task");
        if (Thread.currentThread() instanceof Worker w && w.pool == this) {
            return task.invoke();
        }
        submitExternal(task);
        return task.join();
    }

    /**
     * Arranges for a task to run: on a worker of this pool it is forked onto that worker's deque,
     * otherwise it is submitted.
     *
     * @param task the task
     * @param <T>  result type
     * @return the task, for joining
     */
    public <T> Task<T> submit(Task<T> task) {
        Objects.requireNonNull(task, "task");
        schedule(task);
        return task;
    }

    @Override
    public void execute(Runnable command) {
        Objects.requireNonNull(command, "command");
        schedule(command instanceof Task<?> t ? t : new AdaptedTasks.ExecuteTask(command));
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new AdaptedTasks.RunnableTask<>(runnable, value);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new AdaptedTasks.CallableTask<>(callable);
    }

    /**
     * The number of active workers: the team size loops and regions plan for. It is the count
     * given at construction until {@link #setParallelism} changes it.
     *
     * @return the parallelism
     */
    public int parallelism() {
        return parallelism;
    }

    /**
     * Changes the number of active workers at run time — the application telling the runtime its
     * concurrency level (seed 003, §5.2).
     *
     * <p>Raising it starts workers for the new slots at once. Lowering it retires the workers with
     * the highest indices: each finishes the task it is running and every task on its own deque
     * (nothing is dropped or moved), then exits when it next has nothing of its own to run; a
     * retiring worker that is parked is woken to exit. Until then it may still take work, so the
     * number of running workers falls to {@code n} as soon as the retiring ones are idle, not
     * before. Loops, regions and spawn decisions started afterwards plan for {@code n} workers.
     *
     * <pre>{@code
     * SpindlePool pool = SpindlePool.defaultPool();
     * pool.setParallelism(Topology.current().cores());    // one worker per physical core
     * }</pre>
     *
     * @param n the new number of workers, 1..{@value #MAX_WORKERS}
     * @return the previous parallelism
     * @throws IllegalArgumentException if n is outside that range (naming it)
     * @throws IllegalStateException    if the pool is shut down
     */
    public int setParallelism(int n) {
        if (n < 1 || n > MAX_WORKERS) {
            throw new IllegalArgumentException("parallelism must be in 1.." + MAX_WORKERS + ", was " + n);
        }
        int old;
        List<Worker> started = new ArrayList<>();
        synchronized (terminationLock) {
            if (runState != RUNNING) {
                throw new IllegalStateException("setParallelism(" + n + ") on " + (runState == SHUTDOWN
                        ? "a pool that is shutting down" : "a terminated pool"));
            }
            old = parallelism;
            if (n > workers.length) {
                Worker[] grown = new Worker[n];
                for (int i = 0; i < workers.length; i++) {
                    grown[i] = workerAt(i);
                }
                workers = grown;                     // volatile: readers see the copied slots
            }
            parallelism = n;
            for (int i = 0; i < n; i++) {
                Worker w = workerAt(i);
                if (w == null || w.retired) {
                    Worker fresh = new Worker(this, i, w == null ? new SplitDeque<>() : w.deque, w);
                    workers(i, fresh);
                    liveWorkers++;
                    started.add(fresh);
                }
            }
        }
        for (Worker w : started) {
            w.start();
        }
        if (n < old) {
            idle.wakeFrom(n);                        // parked retiring workers wake up and exit
        }
        return old;
    }

    /**
     * Pins each worker to one CPU, or releases them (off by default). Worker <i>i</i> is bound to
     * the <i>i</i>-th CPU (modulo their number) of {@link Topology#cpusSpreadOverCores()} among
     * the CPUs the thread that first enabled pinning was allowed to use — one worker per physical
     * core before two share one. Each worker applies the change itself (a thread can only set its
     * own affinity portably) before the next task it takes from its main loop, and a parked worker
     * when it wakes; unpinning gives every worker that whole CPU set back. Workers started later, by
     * {@link #setParallelism} or to replace one that died, follow the current setting. A worker
     * whose system call fails logs a WARNING and runs unpinned.
     *
     * <p>Pinning helps when the pool owns the machine (fewer migrations, warm caches); it hurts
     * when other processes compete for the same CPUs, which is why it is off unless asked for. The
     * default pool pins if {@code -Dspindle.pin=true}.
     *
     * <pre>{@code
     * try (SpindlePool pool = new SpindlePool(Topology.current().cores())) {
     *     if (CpuAffinity.isSupported()) {
     *         pool.setWorkerPinning(true);
     *     }
     *     pool.invoke(task);
     * }
     * }</pre>
     *
     * @param pinned true to pin, false to release
     * @throws UnsupportedOperationException if {@code pinned} and this JVM cannot set thread
     *                                       affinity ({@link CpuAffinity#unsupportedReason()})
     */
    public void setWorkerPinning(boolean pinned) {
        if (pinned && !CpuAffinity.isSupported()) {
            throw new UnsupportedOperationException("cannot pin workers: " + CpuAffinity.unsupportedReason());
        }
        synchronized (terminationLock) {
            if (pinned && pinnableCpus == null) {
                pinnableCpus = CpuAffinity.ofCurrentThread();
            }
            pinWorkers = pinned;
            pinningEpoch++;                          // volatile: workers compare it before each task
        }
    }

    /**
     * Binds each parked worker to the CPU it parked on until it wakes, so that a wake-up puts it
     * back there and not on the CPU of the thread that woke it; a running worker keeps the CPU set
     * it started with. On a virtual machine whose kernel places a woken thread on its waker's vCPU
     * even when another is idle, this is what lets a parallel loop that follows an idle period use
     * every worker at once (the mechanism, its cost and the measurements are in
     * {@code ParkBinding}'s documentation and docs/PERFORMANCE.md).
     *
     * <p>The default comes from {@code -Dspindle.parkBinding=true|false}; unset, it is on where
     * {@link CpuAffinity#isSupported()} and the JVM runs with {@code --enable-native-access} for
     * Spindle (so that it never causes a restricted-method warning). Asking for it where affinity
     * cannot be set changes nothing: workers park unbound. Pinned workers are bound anyway and
     * ignore it.
     *
     * @param on true to bind parked workers, false to leave their placement to the kernel
     */
    public void setParkBinding(boolean on) {
        parkBinding = on;
    }

    /**
     * Whether parked workers are bound to the CPU they parked on (see {@link #setParkBinding}).
     *
     * @return the current setting
     */
    public boolean isParkBinding() {
        return parkBinding;
    }

    /**
     * Whether workers are pinned to CPUs (see {@link #setWorkerPinning}).
     *
     * @return the current setting
     */
    public boolean isWorkerPinning() {
        return pinWorkers;
    }

    int pinningEpoch() {
        return pinningEpoch;
    }

    /** The CPUs workers pin among and return to, or null before the first pinning. */
    BitSet pinnableCpus() {
        return pinnableCpus;
    }

    /** The CPU worker {@code index} pins to, among {@code allowed}. */
    static int cpuFor(int index, BitSet allowed) {
        int[] order = Topology.current().cpusSpreadOverCores();
        int[] usable = new int[order.length];
        int n = 0;
        for (int c : order) {
            if (allowed.get(c)) {
                usable[n++] = c;
            }
        }
        if (n == 0) {                                // sysfs and the mask disagree: use the mask
            return allowed.stream().skip(index % allowed.cardinality()).findFirst().orElseThrow();
        }
        return usable[index % n];
    }

    /**
     * A worker whose index is at or above the parallelism, with nothing of its own to run, asks
     * to exit. Decided under the lock that {@link #setParallelism} holds, so a worker never exits
     * after the parallelism was raised back over its index.
     *
     * @return true if the worker is retired and must return from its run loop
     */
    boolean retire(Worker w) {
        synchronized (terminationLock) {
            if (w.index < parallelism || runState >= STOP) {
                return false;
            }
            w.retired = true;
            liveWorkers--;                           // never 0: slot 0 is always active
        }
        if (runState == SHUTDOWN) {
            tryTerminate();                          // the retiree may have been the last one busy
        }
        return true;
    }

    /**
     * A snapshot of the per-worker and total statistics.
     *
     * @return the statistics
     */
    public PoolStatistics statistics() {
        int n = workerCount();
        List<WorkerStatistics> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(workerAt(i).statistics());       // retired workers keep their counts
        }
        FutureCounts ext = isDefault ? FutureCounts.of(dev.spindle.future.LatentStack.externalCounts()) : FutureCounts.ZERO;
        return new PoolStatistics(out, workerDeaths.get(), ext);
    }

    @Override
    public void shutdown() {
        if (isDefault) {
            return;
        }
        synchronized (terminationLock) {
            if (runState == RUNNING) {
                runState = SHUTDOWN;
            }
        }
        tryTerminate();
        idle.wakeAll();
    }

    @Override
    public List<Runnable> shutdownNow() {
        if (isDefault) {
            return List.of();
        }
        synchronized (terminationLock) {
            if (runState < STOP) {
                runState = STOP;
            }
        }
        List<Runnable> out = new ArrayList<>();
        while (pendingSubmissions.get() != 0) {
            Thread.onSpinWait();                     // a submitter between its check and offer
        }
        for (Task<?> t : submissions.drain()) {
            t.cancel(false);
            out.add(t);
        }
        idle.wakeAll();
        return out;
    }

    @Override
    public boolean isShutdown() {
        return runState != RUNNING;
    }

    @Override
    public boolean isTerminated() {
        return runState == TERMINATED;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (terminationLock) {
            while (runState != TERMINATED) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(terminationLock, left);
            }
            return true;
        }
    }

    /**
     * Shuts down and waits until every submitted task, and every task they forked, has finished.
     * Ignored by the default pool.
     *
     * @throws IllegalStateException if called from a worker of this pool (it would wait for itself)
     */
    @Override
    public void close() {
        if (isDefault) {
            return;
        }
        if (Thread.currentThread() instanceof Worker w && w.pool == this) {
            throw new IllegalStateException("close() called from " + w.getName() + ", a worker of this pool");
        }
        shutdown();
        boolean interrupted = false;
        while (!isTerminated()) {
            try {
                awaitTermination(1L, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        String st = switch (runState) {
            case RUNNING -> "running";
            case SHUTDOWN -> "shutting down";
            case STOP -> "stopping";
            default -> "terminated";
        };
        return "SpindlePool[" + st + ", workers=" + parallelism + ", " + statistics().summary() + "]";
    }
}
