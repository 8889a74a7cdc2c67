package dev.spindle.bench.suite;

import java.util.OptionalDouble;

/**
 * What a {@link Figure} reads from one runner invocation: the medians and counters of one suite's
 * rows (benchmark × variant × workers), with the runs of every fork pooled.
 */
public interface RunFigures {
    /** Matches a row at any worker count: for a variant measured once, such as {@code seq}. */
    int ANY_WORKERS = -1;

    /**
     * @param bench   benchmark name
     * @param variant variant name
     * @param workers worker count, or {@link #ANY_WORKERS}
     * @return the row's median time in ms, if it ran to the end
     */
    OptionalDouble medianMs(String bench, String variant, int workers);

    /**
     * @param bench   benchmark name
     * @param variant variant name
     * @param workers worker count, or {@link #ANY_WORKERS}
     * @param name    a counter, per timed run ({@code futures}, {@code alloc_bytes}, {@code loops}, …)
     * @return the counter, if the row ran to the end and counted it
     */
    OptionalDouble counter(String bench, String variant, int workers, String name);
}
