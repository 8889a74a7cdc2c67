package dev.spindle.bench.suite;

/**
 * One way of computing a benchmark (seq, spindle, fjp, threads, ...).
 *
 * @param <I> input type
 * @param <R> result type
 */
public interface Variant<I, R> {

    /** @return the variant's name as printed and written to results.json */
    String name();

    /** @return true if the variant runs on a worker count (false: sequential, or threads unbounded) */
    boolean usesWorkers();

    /**
     * A baseline so slow (a thread per fork) that the runner times it once, without warm-up, to
     * keep the suite within its time budget; results.json then says runs = 1.
     *
     * @return true for such a baseline
     */
    default boolean singleRun() {
        return false;
    }

    /**
     * Sets up the variant for a worker count (creates its pool).
     *
     * @param workers worker count (ignored if {@link #usesWorkers()} is false)
     * @return a running instance; close it to release threads
     */
    Instance<I, R> open(int workers);

    /**
     * This variant under another name (same pool, same runs).
     *
     * @param name the name to report
     * @return the renamed variant
     */
    default Variant<I, R> named(String name) {
        return of(name, usesWorkers(), singleRun(), this::open);
    }

    /**
     * A variant from its parts.
     *
     * @param name        the name
     * @param usesWorkers whether it runs on a worker count
     * @param singleRun   whether the runner times it once (see {@link #singleRun()})
     * @param open        sets it up for a worker count
     * @param <I>         input type
     * @param <R>         result type
     * @return the variant
     */
    static <I, R> Variant<I, R> of(String name, boolean usesWorkers, boolean singleRun,
                                   java.util.function.IntFunction<Instance<I, R>> open) {
        record Parts<I, R>(String name, boolean usesWorkers, boolean singleRun,
                           java.util.function.IntFunction<Instance<I, R>> opener) implements Variant<I, R> {
            @Override
            public Instance<I, R> open(int workers) {
                return opener.apply(workers);
            }
        }
        return new Parts<>(name, usesWorkers, singleRun, open);
    }

    /**
     * A variant set up for one worker count.
     *
     * @param <I> input type
     * @param <R> result type
     */
    interface Instance<I, R> extends AutoCloseable {
        /**
         * Computes the benchmark once.
         *
         * @param input the input (fresh for this run)
         * @return the answer
         */
        R run(I input);

        /** @return cumulative scheduler counters of the instance's pool (steals, tasks, ...), may be empty */
        default java.util.Map<String, Long> counters() {
            return java.util.Map.of();
        }

        @Override
        default void close() {
        }
    }
}
