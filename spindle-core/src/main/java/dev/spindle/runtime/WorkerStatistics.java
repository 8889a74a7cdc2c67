package dev.spindle.runtime;

/**
 * Counters of one worker since the pool started. Read without synchronization while the pool
 * runs, so a snapshot of a busy pool is approximate; of a quiescent pool it is exact.
 *
 * <pre>{@code
 * for (WorkerStatistics w : pool.statistics().workers())
 *     System.out.println(w.index() + ": " + w.tasksRun() + " tasks, " + w.steals() + " steals");
 * }</pre>
 *
 * @param index            the worker's index
 * @param tasksRun         tasks this worker ran (its own, stolen, taken from submissions, helped)
 * @param steals           tasks taken from other workers' deques
 * @param failedSteals     steal attempts that found a victim's shared region empty
 * @param parks            times the worker parked (idle or in a join)
 * @param helpingJoins     tasks run while waiting in a join
 * @param submissionsTaken tasks taken from the external submission queue
 * @param quietWindows     times the worker stopped asking others for latent work for a while,
 *                         because a promoted piece it had stolen was too small to pay for its
 *                         search (see {@code RequestBackoff})
 * @param busyNanos        nanoseconds spent running the tasks the worker's main loop took (its own
 *                         and stolen ones, with every join and touch inside them); the rest of the
 *                         worker's time it was searching for work or parked. A task still
 *                         running counts up to the snapshot, so a snapshot taken the moment a
 *                         join of that task returns already holds all of it
 * @param waitNanos        nanoseconds spent inside those tasks waiting with nothing to run
 *                         (spinning, yielding, parked), not counting tasks run meanwhile: in joins
 *                         (fork/join, a loop's members) and in touches of a promoted future
 *                         another worker runs; {@code busyNanos - waitNanos} is the time spent
 *                         computing. Not counted as waiting: a region's barrier, and a touch of a
 *                         future another thread runs inline without promoting it
 * @param futures          lazy futures this worker created, ran inline, promoted, stole
 */
public record WorkerStatistics(int index, long tasksRun, long steals, long failedSteals, long parks,
                               long helpingJoins, long submissionsTaken, long quietWindows, long busyNanos, long waitNanos,
                               FutureCounts futures) {

    /**
     * The difference {@code this - earlier}, for measuring an interval.
     *
     * @param earlier an earlier snapshot of the same worker
     * @return the counts between the two snapshots
     */
    public WorkerStatistics minus(WorkerStatistics earlier) {
        return new WorkerStatistics(index, tasksRun - earlier.tasksRun, steals - earlier.steals,
                failedSteals - earlier.failedSteals, parks - earlier.parks,
                helpingJoins - earlier.helpingJoins, submissionsTaken - earlier.submissionsTaken,
                quietWindows - earlier.quietWindows,
                busyNanos - earlier.busyNanos, waitNanos - earlier.waitNanos, futures.minus(earlier.futures));
    }
}
