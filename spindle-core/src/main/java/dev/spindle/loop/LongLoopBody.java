package dev.spindle.loop;

/** The body of a parallel loop over {@code long} indices, called once per index. */
@FunctionalInterface
public interface LongLoopBody {
    /**
     * Runs iteration {@code i}.
     *
     * @param i the index
     */
    void run(long i);
}
