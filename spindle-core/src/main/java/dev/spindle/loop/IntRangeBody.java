package dev.spindle.loop;

/**
 * The body of a parallel loop over {@code int} indices, called once per chunk with a sub-range
 * to run sequentially; the inner loop is then the user's own and the JIT compiles it as such.
 */
@FunctionalInterface
public interface IntRangeBody {
    /**
     * Runs iterations {@code from} (inclusive) to {@code to} (exclusive).
     *
     * @param from first index
     * @param to   end index, greater than {@code from}
     */
    void run(int from, int to);
}
