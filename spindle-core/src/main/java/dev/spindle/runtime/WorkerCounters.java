package dev.spindle.runtime;

/**
 * A worker's statistics counters, written by that worker alone on every task, and kept on cache
 * lines of their own: thieves read the worker's read-mostly fields (its deque) on every steal
 * attempt, and a counter beside them would make each attempt invalidate the owner's line.
 * Read without synchronization by statistics snapshots.
 */
final class WorkerCounters {
    @SuppressWarnings("unused") private long p0, p1, p2, p3, p4, p5, p6, p7;
    long tasksRun;
    long steals;
    long failedSteals;
    long parks;
    long helpingJoins;
    long submissionsTaken;
    /** Quiet windows opened ({@link RequestBackoff}). */
    long quietWindows;
    /** Nanoseconds in tasks the main loop ran (waits inside them included). */
    long busyNanos;
    /** Nanoseconds waiting in joins and touches with nothing to run (helped tasks excluded). */
    long waitNanos;
    @SuppressWarnings("unused") private long q0, q1, q2, q3, q4, q5, q6, q7;
}
