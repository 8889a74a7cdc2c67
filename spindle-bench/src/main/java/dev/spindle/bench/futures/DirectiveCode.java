package dev.spindle.bench.futures;

/**
 * A program of the {@code directive} suite: its serial code with {@code @Future} on the recursive
 * results. The class is woven at build time by {@code spindle-maven-plugin}; the suite's {@code seq}
 * variant runs the same class from its unwoven copy.
 *
 * @param <I> input
 * @param <R> result
 */
public interface DirectiveCode<I, R> {
    /**
     * Runs the computation.
     *
     * @param input the input
     * @return the result
     */
    R run(I input);

    /**
     * How many potential futures (executions of a {@code @Future} declaration) a run on this input
     * makes in the sequential order — the denominator of the suite's bytes per future. Computed
     * outside the runtime, which counts only the calls it deferred: counting every call there
     * cost a third of Knapsack's time at one worker. A first call may be slow (memoized).
     *
     * @param input the input of the run that just finished
     * @return the count
     */
    long potentialFutures(I input);
}
