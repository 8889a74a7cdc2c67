package dev.spindle.loop;

/**
 * One member's view of a parallel region's team (OpenMP's {@code parallel}): its id, the team
 * size, barriers, {@code single} and {@code master} sections and work-sharing loops. Every member
 * must reach the same barriers, {@code single} sections and {@code forEach} loops in the same
 * order, as in OpenMP.
 *
 * <pre>{@code
 * Loops.parallelRegion(team -> {
 *     for (int step = 0; step < steps; step++) {
 *         team.forEach(1, n - 1, i -> next[i] = (cur[i - 1] + cur[i + 1]) / 2);   // barrier at the end
 *         team.single(() -> swap());                                                // and here
 *     }
 * });
 * }</pre>
 */
public final class Team {
    private final Region region;
    private final int id;
    /** This member's count of work-sharing constructs (forEach, single) reached so far. */
    private int constructs;

    Team(Region region, int id) {
        this.region = region;
        this.id = id;
    }

    /**
     * This member's id, {@code 0 .. size() - 1}; 0 is the thread that started the region.
     *
     * @return the id
     */
    public int id() {
        return id;
    }

    /**
     * The number of members, fixed before any member runs: as many as asked for when enough
     * workers were free to start them, fewer otherwise (at least 1).
     *
     * @return the team size
     */
    public int size() {
        return region.size;
    }

    /** Waits until every member has reached this barrier. */
    public void barrier() {
        region.barrier();
    }

    /**
     * Runs {@code action} on exactly one member (whichever arrives first), then a barrier.
     *
     * @param action the section
     */
    public void single(Runnable action) {
        int c = ++constructs;
        if (region.claimSingle(c)) {
            try {
                action.run();
            } catch (Throwable t) {
                region.fail(t);
            }
        }
        region.barrier();
    }

    /**
     * Runs {@code action} on member 0 only; no barrier.
     *
     * @param action the section
     */
    public void master(Runnable action) {
        if (id == 0) {
            action.run();
        }
    }

    /**
     * A work-sharing loop: the team's members together run every index of {@code [from, to)}
     * once, static blocks; a barrier at the end.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param body the iteration
     */
    public void forEach(int from, int to, IntLoopBody body) {
        forEach(from, to, Schedule.staticBlocks(), body);
    }

    /**
     * A work-sharing loop with a schedule (auto, inside a region, is guided with a minimum chunk
     * of about 1/64 of each member's share); a barrier at the end.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param body     the iteration
     */
    public void forEach(int from, int to, Schedule schedule, IntLoopBody body) {
        int c = ++constructs;
        ParallelLoop loop = region.workShare(c, from, to, schedule, body);
        if (loop != null) {
            loop.participate(id, null);
        }
        region.barrier();
        if (loop != null) {
            loop.failure.rethrow();
        }
    }

    @Override
    public String toString() {
        return "Team member " + id + " of " + region.size;
    }
}
