package dev.spindle.loop;

/** Like {@link IntRangeBody}, over {@code long} indices. */
@FunctionalInterface
public interface LongRangeBody {
    /**
     * Runs iterations {@code from} (inclusive) to {@code to} (exclusive).
     *
     * @param from first index
     * @param to   end index, greater than {@code from}
     */
    void run(long from, long to);
}
