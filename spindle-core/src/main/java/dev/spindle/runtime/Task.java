package dev.spindle.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A unit of work the scheduler runs exactly once, with a result, a failure or a cancellation that
 * any number of threads may join.
 *
 * <p>Subclass {@link dev.spindle.forkjoin.RecursiveTask} or {@link dev.spindle.forkjoin.RecursiveAction}
 * rather than this class. A task is forked onto the current worker's deque with {@link #fork()}
 * (from a thread that is not a worker, onto the pool's submission queue) and waited for with
 * {@link #join()}: a worker that joins helps — it runs the awaited task itself if it is still in
 * its deque, otherwise other work — and parks only when nothing is runnable.
 *
 * <h2>Completion protocol</h2>
 * {@code status} goes once from PENDING to NORMAL, EXCEPTIONAL or CANCELLED by CAS, so exactly one
 * outcome wins; the result or failure is written before that CAS and read after a volatile read
 * of {@code status}, which gives joiners a happens-before edge from everything the body did.
 * Threads that must block push a node on the {@code waiters} stack (CAS) and re-check
 * {@code status} before parking; the completer CASes {@code status} and then reads {@code waiters}.
 * Both sides write one variable and then read the other with volatile accesses, so at least one
 * sees the other: either the waiter sees the outcome and does not park, or the completer sees the
 * waiter and unparks it (no lost wake-up).
 *
 * <h2>Failures</h2>
 * {@link #join()} rethrows an unchecked exception or Error as itself, adding a
 * {@link JoinSite} (a Throwable whose stack trace is the join's) as a suppressed exception so the
 * joiner's location is kept; a checked exception arrives wrapped in a {@link CompletionException}.
 * {@link #get()} follows {@link java.util.concurrent.Future}: an {@link ExecutionException}.
 * An {@link Error} thrown by a task is also rethrown on the thread that ran the task: on a worker
 * it unwinds that worker's stack (every task frame on it completes with the Error) and the pool
 * replaces the worker thread; the Error reaches every joiner.
 *
 * <pre>{@code
 * Task<String> t = new Task<>() {
 *     protected String compute() throws IOException { return Files.readString(path); }
 * };
 * pool.submit(t);                 // or t.fork() on a worker
 * String text = t.join();         // an IOException arrives wrapped in CompletionException
 * }</pre>
 *
 * @param <T> result type
 */
public abstract class Task<T> implements RunnableFuture<T> {

    static final int PENDING = 0;
    static final int NORMAL = 1;
    static final int EXCEPTIONAL = 2;
    static final int CANCELLED = 3;
    private static final int MAX_JOIN_SITES = 8;

    private volatile int status;
    /**
     * Set once by the worker that steals this task, before it advertises it as its running steal:
     * its deque's top index at that moment. Elements it pushes at or above it while running this
     * task belong to this task's computation (see {@link Worker#awaitFuture}).
     */
    int stealFloor;
    private volatile WaitNode waiters;
    private T result;
    private Throwable failure;

    private static final VarHandle STATUS;
    private static final VarHandle WAITERS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATUS = l.findVarHandle(Task.class, "status", int.class);
            WAITERS = l.findVarHandle(Task.class, "waiters", WaitNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Constructor for subclasses. */
    protected Task() {
    }

    /**
     * The task's body.
     *
     * @return the result
     * @throws Exception any failure, delivered to joiners
     */
    protected abstract T compute() throws Exception;

    // ------------------------------------------------------------------ running

    /**
     * Runs the body unless the task already completed (for example was cancelled), and records
     * its outcome. Called by the scheduler; calling it directly runs the task on this thread.
     * An Error thrown by the body is recorded and rethrown.
     */
    @Override
    public final void run() {
        if (status != PENDING || !tryClaim()) {
            return;
        }
        runBody();
    }

    /**
     * Claims the right to run the body, for tasks that more than one thread may try to run (a
     * promoted future is both in a deque and reachable by its touchers). The default grants it:
     * a deque hands each task to exactly one thread.
     *
     * @return true if the caller may run the body
     */
    protected boolean tryClaim() {
        return true;
    }

    /**
     * True if whoever takes this task from a deque would drop it: it is done, or another thread
     * has claimed it (see {@link #isClaimed()}). Racy by nature, stable once true.
     *
     * @return whether the task is a dead entry
     */
    public final boolean isStale() {
        return status != PENDING || isClaimed();
    }

    /**
     * When this task was made stealable by a promotion ({@link System#nanoTime()}), or 0 for a task
     * that was pushed, not promoted. A thief that runs a promoted task measures from it how long
     * exposed work waits for a taker: the cost of a split that {@link Worker#awaitFuture} weighs
     * before it asks a thief for part of the future it waits for.
     *
     * @return the promotion's time, or 0
     */
    protected long promotedAt() {
        return 0L;
    }

    /**
     * True once some thread holds the claim of {@link #tryClaim()}. The default, for tasks that
     * only a deque hands out, is false.
     *
     * @return whether the task was claimed
     */
    protected boolean isClaimed() {
        return false;
    }

    /** Runs the body of a task the caller has already claimed with {@link #tryClaim()}. */
    protected final void runClaimed() {
        if (status == PENDING) {
            runBody();
        }
    }

    private void runBody() {
        T r;
        try {
            r = compute();
        } catch (Throwable ex) {
            completeExceptionally(ex);
            if (ex instanceof Error err) {
                throw err;
            }
            return;
        }
        complete(r);
    }

    /**
     * Completes the task normally with a result unless it already completed.
     *
     * @param value the result
     * @return true if this call completed the task
     */
    protected final boolean complete(T value) {
        if (status != PENDING) {
            return false;
        }
        result = value;
        if (STATUS.compareAndSet(this, PENDING, NORMAL)) {
            wakeWaiters();
            return true;
        }
        return false;
    }

    /**
     * Completes the task with a failure unless it already completed.
     *
     * @param ex the failure, not null
     * @return true if this call completed the task
     */
    protected final boolean completeExceptionally(Throwable ex) {
        if (ex == null) {
            throw new NullPointerException("ex");
        }
        if (status != PENDING) {
            return false;
        }
        failure = ex;
        if (STATUS.compareAndSet(this, PENDING, EXCEPTIONAL)) {
            wakeWaiters();
            return true;
        }
        return false;
    }

    private void wakeWaiters() {
        if (waiters == null) {
            return;
        }
        WaitNode w = (WaitNode) WAITERS.getAndSet(this, (WaitNode) null);
        for (; w != null; w = w.next) {
            LockSupport.unpark(w.thread);
        }
    }

    // ------------------------------------------------------------------ fork / join

    /**
     * Makes this task available to run asynchronously: on a worker, pushes it on that worker's
     * deque; elsewhere, submits it to the current thread's default pool.
     *
     * @return this task
     */
    public final Task<T> fork() {
        if (Thread.currentThread() instanceof Worker w) {
            w.barrier.push(w, this);
        } else {
            SpindlePool.defaultPool().submitExternal(this);
        }
        return this;
    }

    /**
     * Waits for the task and returns its result. A worker helps while it waits; any other thread
     * blocks (uninterruptibly).
     *
     * @return the result
     * @throws CancellationException if the task was cancelled
     * @throws CompletionException wrapping a checked exception thrown by the task
     */
    public final T join() {
        // No status test here: this method is inlined into user tasks, and a branch whose
        // direction changes with the worker count (pending at one worker, often done at two)
        // deoptimizes the user's recursive compute() and can leave it recompiled worse
        // (measured: Fib at 2 workers stuck at 285 ms instead of 170 ms in one JVM of six).
        // awaitDone() tests the status out of line.
        awaitDone();
        return reportJoin();
    }

    /**
     * Runs the task on the current thread (if it has not started) and returns its result, like
     * {@code fork(); join();} without the fork.
     *
     * @return the result
     */
    public final T invoke() {
        run();
        return join();
    }

    /**
     * Forks {@code b}, runs {@code a} here, then joins {@code b}.
     *
     * @param a a task to run on this thread
     * @param b a task to make stealable
     */
    public static void invokeAll(Task<?> a, Task<?> b) {
        b.fork();
        try {
            a.invoke();
        } finally {
            b.quietlyJoin();
        }
        b.join();
    }

    /**
     * Forks all but the first, runs the first here, then joins the rest; the first failure is
     * thrown after every task finished.
     *
     * @param tasks the tasks
     */
    public static void invokeAll(Task<?>... tasks) {
        if (tasks.length == 0) {
            return;
        }
        for (int i = tasks.length - 1; i > 0; i--) {
            tasks[i].fork();
        }
        Throwable first = null;
        for (Task<?> t : tasks) {
            try {
                if (t == tasks[0]) {
                    t.invoke();
                } else {
                    t.join();
                }
            } catch (Throwable ex) {
                if (first == null) {
                    first = ex;
                }
            }
        }
        if (first != null) {
            sneakyThrow(first);
        }
    }

    /**
     * Waits until done (helping, on a worker) without reporting the outcome; inspect it with
     * {@link #isCompletedNormally()} and {@link #getException()}.
     */
    public final void quietlyJoin() {
        if (status == PENDING) {
            awaitDone();
        }
    }

    private void awaitDone() {
        if (Thread.currentThread() instanceof Worker w) {
            w.barrier.join(w, this);
        } else if (status == PENDING) {
            blockUntilDone(false, 0L);
        }
    }

    /**
     * Blocks the calling thread until the task completes (or the deadline passes, if timed).
     *
     * @return true if done
     */
    final boolean blockUntilDone(boolean interruptible, long deadlineNanos) {
        WaitNode node = null;
        boolean interrupted = false;
        try {
            while (status == PENDING) {
                if (node == null) {
                    node = new WaitNode(Thread.currentThread());
                    continue;
                }
                if (!node.queued) {
                    WaitNode h = waiters;
                    node.next = h;
                    node.queued = WAITERS.compareAndSet(this, h, node);
                    continue;                           // re-check status after publishing
                }
                if (deadlineNanos != 0L) {
                    long left = deadlineNanos - System.nanoTime();
                    if (left <= 0L) {
                        return false;
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
                if (Thread.interrupted()) {
                    if (interruptible) {
                        Thread.currentThread().interrupt();
                        return status != PENDING;
                    }
                    interrupted = true;
                }
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Registers the current thread to be unparked at completion; the caller re-checks status. */
    final void registerWaiter(WaitNode node) {
        for (;;) {
            WaitNode h = waiters;
            node.next = h;
            if (WAITERS.compareAndSet(this, h, node)) {
                return;
            }
        }
    }

    /** True if a waiter is registered and has not been released by completion (for tests). */
    final boolean hasWaiters() {
        return waiters != null;
    }

    private T reportJoin() {
        int s = status;
        if (s == NORMAL) {
            return result;
        }
        if (s == CANCELLED) {
            throw new CancellationException("task was cancelled: " + this);
        }
        Throwable ex = failure;
        if (ex instanceof RuntimeException || ex instanceof Error) {
            if (ex.getSuppressed().length < MAX_JOIN_SITES) {
                ex.addSuppressed(new JoinSite(Thread.currentThread()));
            }
            sneakyThrow(ex);
        }
        throw new CompletionException(ex);
    }

    @SuppressWarnings("unchecked")
    static <X extends Throwable> void sneakyThrow(Throwable t) throws X {
        throw (X) t;
    }

    // ------------------------------------------------------------------ Future

    @Override
    public final boolean isDone() {
        return status != PENDING;
    }

    @Override
    public final boolean isCancelled() {
        return status == CANCELLED;
    }

    /**
     * @return true if the task completed with a result
     */
    public final boolean isCompletedNormally() {
        return status == NORMAL;
    }

    /**
     * @return true if the task failed or was cancelled
     */
    public final boolean isCompletedAbnormally() {
        int s = status;
        return s == EXCEPTIONAL || s == CANCELLED;
    }

    /**
     * @return the failure, a CancellationException if cancelled, or null
     */
    public final Throwable getException() {
        int s = status;
        if (s == EXCEPTIONAL) {
            return failure;
        }
        return s == CANCELLED ? new CancellationException() : null;
    }

    /**
     * Cancels the task if it has not completed. A cancelled task that has not started never runs;
     * one already running finishes, but its outcome is discarded. The argument is ignored: workers
     * are not interrupted.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (STATUS.compareAndSet(this, PENDING, CANCELLED)) {
            wakeWaiters();
            return true;
        }
        return false;
    }

    @Override
    public final T get() throws InterruptedException, ExecutionException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (status == PENDING) {
            if (Thread.currentThread() instanceof Worker w) {
                w.helpJoin(this);
            } else if (!blockUntilDone(true, 0L)) {
                Thread.interrupted();                   // the exception reports the interrupt: clear it, as get(timeout) does
                throw new InterruptedException();
            }
        }
        return reportGet();
    }

    @Override
    public final T get(long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = Objects.requireNonNull(unit, "unit").toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (status == PENDING) {
            long deadline = System.nanoTime() + Math.max(nanos, 1L);
            if (deadline == 0L) {
                deadline = 1L;
            }
            if (!blockUntilDone(true, deadline)) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                throw new TimeoutException("task not done after " + timeout + " " + unit + ": " + this);
            }
        }
        return reportGet();
    }

    private T reportGet() throws ExecutionException {
        int s = status;
        if (s == NORMAL) {
            return result;
        }
        if (s == CANCELLED) {
            throw new CancellationException("task was cancelled: " + this);
        }
        throw new ExecutionException(failure);
    }

    @Override
    public String toString() {
        String st = switch (status) {
            case PENDING -> "pending";
            case NORMAL -> "completed";
            case EXCEPTIONAL -> "failed: " + failure;
            default -> "cancelled";
        };
        return getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(this)) + "[" + st + "]";
    }

    /** A parked thread waiting for completion. */
    static final class WaitNode {
        final Thread thread;
        WaitNode next;
        boolean queued;

        WaitNode(Thread thread) {
            this.thread = thread;
        }
    }
}
