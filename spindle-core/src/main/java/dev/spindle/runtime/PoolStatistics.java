package dev.spindle.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * A snapshot of a pool's counters, per worker and in total.
 *
 * <pre>{@code
 * try (SpindlePool pool = new SpindlePool(2)) {
 *     PoolStatistics before = pool.statistics();
 *     pool.invoke(new Fib(30));
 *     System.out.println(pool.statistics().minus(before).summary());
 * }
 * }</pre>
 *
 * @param workers      per-worker counters, by index
 * @param workerDeaths worker threads replaced after an Error
 * @param externalFutures lazy futures created by threads that are not workers (default pool only)
 */
public record PoolStatistics(List<WorkerStatistics> workers, long workerDeaths, FutureCounts externalFutures) {

    /** Defensive copy. */
    public PoolStatistics {
        workers = List.copyOf(workers);
    }

    /** @return total tasks run */
    public long tasksRun() {
        return workers.stream().mapToLong(WorkerStatistics::tasksRun).sum();
    }

    /** @return total steals */
    public long steals() {
        return workers.stream().mapToLong(WorkerStatistics::steals).sum();
    }

    /** @return total failed steal attempts */
    public long failedSteals() {
        return workers.stream().mapToLong(WorkerStatistics::failedSteals).sum();
    }

    /** @return total parks */
    public long parks() {
        return workers.stream().mapToLong(WorkerStatistics::parks).sum();
    }

    /** @return total tasks run while helping a join */
    public long helpingJoins() {
        return workers.stream().mapToLong(WorkerStatistics::helpingJoins).sum();
    }

    /** @return total tasks taken from the submission queue */
    public long submissionsTaken() {
        return workers.stream().mapToLong(WorkerStatistics::submissionsTaken).sum();
    }

    /** @return total quiet windows: times a worker stopped asking for latent work after a piece too small to pay */
    public long quietWindows() {
        return workers.stream().mapToLong(WorkerStatistics::quietWindows).sum();
    }

    /**
     * The difference {@code this - earlier}.
     *
     * @param earlier an earlier snapshot of the same pool
     * @return the counts between the two snapshots
     */
    public PoolStatistics minus(PoolStatistics earlier) {
        List<WorkerStatistics> out = new ArrayList<>(workers.size());
        for (int i = 0; i < workers.size(); i++) {
            out.add(i < earlier.workers.size() ? workers.get(i).minus(earlier.workers.get(i)) : workers.get(i));
        }
        return new PoolStatistics(out, workerDeaths - earlier.workerDeaths, externalFutures.minus(earlier.externalFutures));
    }

    /** @return nanoseconds workers spent running the tasks their main loops took (waits inside included) */
    public long busyNanos() {
        return workers.stream().mapToLong(WorkerStatistics::busyNanos).sum();
    }

    /** @return nanoseconds workers spent waiting in joins and touches with nothing to run */
    public long waitNanos() {
        return workers.stream().mapToLong(WorkerStatistics::waitNanos).sum();
    }

    /** @return lazy futures of all workers and of threads that are not workers */
    public FutureCounts futures() {
        FutureCounts f = externalFutures;
        for (WorkerStatistics w : workers) {
            f = f.plus(w.futures());
        }
        return f;
    }

    /** @return a one-line summary */
    public String summary() {
        FutureCounts f = futures();
        return String.format(java.util.Locale.ROOT, "workers=%d tasks=%d steals=%d failedSteals=%d parks=%d helpingJoins=%d submissions=%d quietWindows=%d deaths=%d"
                        + " busy=%.3fms waiting=%.3fms futures=%d inline=%d promoted=%d stolen=%d",
                workers.size(), tasksRun(), steals(), failedSteals(), parks(), helpingJoins(),
                submissionsTaken(), quietWindows(), workerDeaths, busyNanos() / 1e6, waitNanos() / 1e6,
                f.created(), f.inline(), f.promoted(), f.stolen());
    }

    @Override
    public String toString() {
        return summary();
    }
}
