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
}
