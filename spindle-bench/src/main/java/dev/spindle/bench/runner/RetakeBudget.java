package dev.spindle.bench.runner;

/**
 * The retakes a guard ({@link SlowPhaseGuard}, {@link CalmCpusGuard}) may spend on one
 * measurement: a timed run with a slow probe around it is taken again, at most
 * {@link SlowPhaseGuard#MAX_RETAKES} times; after that such a run counts, and is counted here as
 * the row's {@code cpu_slow_runs_counted}, which makes the parent measure the fork again
 * ({@link SlowForks}).
 */
final class RetakeBudget {
    private int retakes;
    private int slowRunsCounted;

    /**
     * @param slow whether a probe right before or after the run was slow
     * @return true to throw the run away and take it again
     */
    boolean retake(boolean slow) {
        if (slow && retakes < SlowPhaseGuard.MAX_RETAKES) {
            retakes++;
            return true;
        }
        if (slow) {
            slowRunsCounted++;
        }
        return false;
    }

    /** @return runs taken again so far */
    int retakes() {
        return retakes;
    }

    /** @return runs counted although a probe around them was slow, the retakes being spent */
    int slowRunsCounted() {
        return slowRunsCounted;
    }
}
