package dev.spindle.loop;

/**
 * How a parallel loop's iterations are divided among the workers, after OpenMP's {@code schedule}
 * clause. Immutable; compare with {@link #equals}.
 *
 * <ul>
 * <li>{@link #staticBlocks()} — one contiguous block per team member, sizes differing by at most one;</li>
 * <li>{@link #staticChunks(int)} — chunks of the given size dealt round-robin to the team;</li>
 * <li>{@link #dynamic(int)} — chunks of the given size claimed by whoever is free (one atomic
 *     increment per chunk);</li>
 * <li>{@link #guided(int)} — claimed like dynamic, each chunk a share of what remains
 *     ({@code remaining / (2 × team)}), never smaller than the given minimum;</li>
 * <li>{@link #auto()} — the default: no chunk size. The caller runs the range in small grains
 *     and splits off half of what remains whenever another worker wants work (lazy binary
 *     splitting, after Tzannes et al. and TBB's auto_partitioner). With every worker busy it
 *     costs about a sequential loop.</li>
 * </ul>
 *
 * <pre>{@code
 * Loops.parallelFor(0, n, Schedule.dynamic(64), i -> work(i));
 * }</pre>
 */
public final class Schedule {
    /** The kinds of schedule. */
    public enum Kind {
        /** Contiguous blocks, one per member. */
        STATIC,
        /** Fixed-size chunks dealt round-robin. */
        STATIC_CHUNKED,
        /** Fixed-size chunks claimed on demand. */
        DYNAMIC,
        /** Shrinking chunks claimed on demand. */
        GUIDED,
        /** Adaptive splitting on demand. */
        AUTO
    }

    private static final Schedule STATIC_BLOCKS = new Schedule(Kind.STATIC, 0);
    private static final Schedule AUTO = new Schedule(Kind.AUTO, 0);

    private final Kind kind;
    private final int chunk;

    private Schedule(Kind kind, int chunk) {
        this.kind = kind;
        this.chunk = chunk;
    }

    /**
     * Contiguous blocks, one per team member.
     *
     * @return the schedule
     */
    public static Schedule staticBlocks() {
        return STATIC_BLOCKS;
    }

    /**
     * Chunks of {@code chunk} iterations dealt round-robin to the team members.
     *
     * @param chunk iterations per chunk, at least 1
     * @return the schedule
     * @throws IllegalArgumentException if {@code chunk <= 0}
     */
    public static Schedule staticChunks(int chunk) {
        return new Schedule(Kind.STATIC_CHUNKED, positive(chunk, "chunk"));
    }

    /**
     * Chunks of {@code chunk} iterations claimed by whichever member is free. Each member starts
     * with the chunks of its own contiguous share of the range and then claims from the others'
     * shares, so the order in which chunks are handed out is not the iteration order (OpenMP 5's
     * default nonmonotonic dynamic); a reduction's result does not depend on it.
     *
     * @param chunk iterations per chunk, at least 1
     * @return the schedule
     * @throws IllegalArgumentException if {@code chunk <= 0}
     */
    public static Schedule dynamic(int chunk) {
        return new Schedule(Kind.DYNAMIC, positive(chunk, "chunk"));
    }

    /**
     * Chunks proportional to the remaining iterations, at least {@code minChunk}.
     *
     * @param minChunk smallest chunk, at least 1
     * @return the schedule
     * @throws IllegalArgumentException if {@code minChunk <= 0}
     */
    public static Schedule guided(int minChunk) {
        return new Schedule(Kind.GUIDED, positive(minChunk, "minimum chunk"));
    }

    /**
     * Adaptive splitting that needs no chunk size; the default.
     *
     * @return the schedule
     */
    public static Schedule auto() {
        return AUTO;
    }

    private static int positive(int chunk, String what) {
        if (chunk <= 0) {
            throw new IllegalArgumentException(what + " must be at least 1, got " + chunk);
        }
        return chunk;
    }

    /**
     * The kind.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The chunk size (the minimum for guided); 0 for static blocks and auto.
     *
     * @return the chunk
     */
    public int chunk() {
        return chunk;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule s && s.kind == kind && s.chunk == chunk;
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + chunk;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case STATIC -> "static";
            case STATIC_CHUNKED -> "static(" + chunk + ")";
            case DYNAMIC -> "dynamic(" + chunk + ")";
            case GUIDED -> "guided(" + chunk + ")";
            case AUTO -> "auto";
        };
    }
}
