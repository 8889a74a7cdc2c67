package dev.spindle.runtime;

/**
 * What happened to lazy futures: created, run inline by their creator without being exposed,
 * promoted to stealable tasks, and promoted ones run by a thread other than their creator.
 * Read without synchronization, so approximate while futures are in flight.
 *
 * <pre>{@code
 * FutureCounts f = pool.statistics().futures();
 * System.out.println(f.promoted() + " of " + f.created() + " futures were exposed");
 * }</pre>
 *
 * @param created  futures created, woven {@code @Future} calls the runtime deferred included (calls made at their declaration are not counted)
 * @param inline   futures whose body ran on their creator without promotion
 * @param promoted futures promoted to tasks
 * @param stolen   promoted futures run by another thread than their creator
 */
public record FutureCounts(long created, long inline, long promoted, long stolen) {
    /** No futures. */
    public static final FutureCounts ZERO = new FutureCounts(0, 0, 0, 0);

    static FutureCounts of(long[] c) {
        return new FutureCounts(c[0], c[1], c[2], c[3]);
    }

    /**
     * @param o other counts
     * @return the sum
     */
    public FutureCounts plus(FutureCounts o) {
        return new FutureCounts(created + o.created, inline + o.inline, promoted + o.promoted, stolen + o.stolen);
    }

    /**
     * @param o earlier counts
     * @return the difference
     */
    public FutureCounts minus(FutureCounts o) {
        return new FutureCounts(created - o.created, inline - o.inline, promoted - o.promoted, stolen - o.stolen);
    }
}
