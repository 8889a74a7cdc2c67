package dev.spindle.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker's statistics counters, written by that worker alone on every task, and kept on cache
 * lines of their own: thieves read the worker's read-mostly fields (its deque) on every steal
 * attempt, and a counter beside them would make each attempt invalidate the owner's line.
 * Read without synchronization by statistics snapshots, except the busy time (below).
 *
 * <h2>Busy time of a task still running</h2>
 * The main loop adds a task's time to {@link #busyNanos} when the task ends. A snapshot taken
 * between the end of a run and that store — the moment a join or a submission's result returns
 * to the thread that waited, which is when a benchmark reads the pool's statistics — would miss
 * the whole task, and the next snapshot would count it: per-run busy times came out lumpy. So
 * the main loop also publishes when its current task began ({@link #taskStart}, 0 between tasks),
 * and {@link #busyNanos(long)} adds the time since then. The owner writes, in program order and
 * each with release semantics (a plain store on x86, no fence): {@code taskStart = start} before
 * the task, {@code taskStart = 0} and then {@code busyNanos += time} after it. A reader reads
 * {@code busyNanos}, {@code taskStart}, {@code busyNanos} again with acquire semantics and retries
 * if the two reads of {@code busyNanos} differ. A first read that already holds the task's time
 * was written after {@code taskStart = 0}, so the reader sees 0 or the next task's start, never
 * the finished task's: no task is counted twice. A {@code taskStart} of the next task read with an
 * older {@code busyNanos} means the busy time changed between the reads: retried. What is left is
 * the few nanoseconds between the task's end and the owner's clock read that ends its interval.
 */
final class WorkerCounters {
    private static final VarHandle BUSY_NANOS;
    private static final VarHandle TASK_START;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            BUSY_NANOS = l.findVarHandle(WorkerCounters.class, "busyNanos", long.class);
            TASK_START = l.findVarHandle(WorkerCounters.class, "taskStart", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") private long p0, p1, p2, p3, p4, p5, p6, p7;
    long tasksRun;
    long steals;
    long failedSteals;
    long parks;
    long helpingJoins;
    long submissionsTaken;
    /** Quiet windows opened ({@link RequestBackoff}). */
    long quietWindows;
    /** Nanoseconds in tasks the main loop ran (waits inside them included); see the class comment. */
    private long busyNanos;
    /** {@link System#nanoTime()} when the main loop's current task began; 0 between tasks. */
    private long taskStart;
    /** Nanoseconds waiting in joins and touches with nothing to run (helped tasks excluded). */
    long waitNanos;
    @SuppressWarnings("unused") private long q0, q1, q2, q3, q4, q5, q6, q7;

    /** The owner, before the main loop runs a task that began at {@code start}. */
    void taskStarted(long start) {
        TASK_START.setRelease(this, start);
    }

    /** The owner, after the task {@link #taskStarted} announced: its time is busy time. */
    void taskEnded(long start, long end) {
        TASK_START.setRelease(this, 0L);
        BUSY_NANOS.setRelease(this, busyNanos + (end - start));
    }

    /** The owner, leaving its main loop by an exception: a task it was running counts until {@code now}. */
    void taskAbandoned(long now) {
        long start = taskStart;
        if (start != 0L) {
            taskEnded(start, now);
        }
    }

    /**
     * The busy time so far, with the time of a task still running up to {@code now}.
     *
     * @param now the snapshot's {@link System#nanoTime()}
     * @return nanoseconds
     */
    long busyNanos(long now) {
        while (true) {
            long busy = (long) BUSY_NANOS.getAcquire(this);
            long start = (long) TASK_START.getAcquire(this);
            if ((long) BUSY_NANOS.getAcquire(this) == busy) {
                return start == 0L ? busy : busy + Math.max(0L, now - start);
            }
        }
    }
}
