package dev.spindle.loop;

/** The body of a parallel loop over {@code int} indices, called once per index. */
@FunctionalInterface
public interface IntLoopBody {
    /**
     * Runs iteration {@code i}.
     *
     * @param i the index
     */
    void run(int i);
}
