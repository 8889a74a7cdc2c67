package dev.spindle.runtime;

/**
 * When a worker that looks for work stops asking other workers to expose latent work for a
 * while: the thief's side of the granularity decision.
 *
 * <p>A worker without work scans the others' deques, and for each empty one it asks that worker's
 * latent stack to promote its oldest latent future (a request). The owner answers at its next
 * future, touch or join. That split has a cost both sides pay: the thief's wait for the answer,
 * the owner's promotion, and the owner's touch of a value computed on another core. The oldest
 * latent future is the largest piece the owner holds, but a program whose whole computations are
 * a few microseconds (a tree sum of a thousand nodes, called in a loop) has no piece large enough:
 * each request splits off a piece that costs more than it saves, and two workers ran such a loop
 * 1.6–5× slower than one (TreeSum-1K; the factor follows the host's core-to-core latency).
 *
 * <p>The rule: after each promoted piece it ran from its main loop, the thief compares how long
 * the piece ran with how long it searched for it. A piece that ran at least {@link #WORTH_PER_SEARCH}
 * times its search paid for itself, and the thief goes on asking. A smaller one starts a
 * <em>quiet window</em> of {@link #QUIET_PER_SEARCH} times the search, at most {@link #QUIET_CAP_NANOS}:
 * the thief keeps scanning and takes whatever is exposed — forked tasks, loop members, promotions
 * others asked for — but asks no latent stack. The next piece it runs judges again, so a program
 * that moves on to large pieces gets its requests back after one window.
 *
 * <p>Why this loses nothing that mattered. A window is bounded: at most {@link #QUIET_CAP_NANOS},
 * less than the {@link Worker#YIELD_NANOS} a worker searches before it parks, so a window always
 * ends before the worker parks, and the request every worker makes before parking (which wakes
 * the pool when anything is exposed) is never withheld. The owners' decisions are untouched but
 * one: a toucher waiting for a stolen future still asks its thief to split, and threads that are
 * not workers promote by themselves; a worker whose every fellow worker is in a window keeps no
 * woven call latent for its depth ({@link Worker#hasRoomToDefer}: nobody would ask for it). What
 * a window can cost is the parallelism of at most one window per small piece, which is what the
 * piece had just cost.
 */
final class RequestBackoff {
    /** A piece pays for itself if it ran at least this many times the search that found it. */
    static final int WORTH_PER_SEARCH = 4;
    /** A piece that did not pay starts a quiet window of this many times its search. */
    static final int QUIET_PER_SEARCH = 16;
    /** The longest quiet window, in ns: less than {@link Worker#YIELD_NANOS}. */
    static final long QUIET_CAP_NANOS = 50_000L;

    private RequestBackoff() {
    }

    /**
     * The quiet window a thief keeps after running a promoted piece.
     *
     * @param searchedNanos how long it searched before it found the piece
     * @param ranNanos      how long the piece ran
     * @return the window in ns, 0 if the piece paid for itself
     */
    static long quietNanos(long searchedNanos, long ranNanos) {
        long searched = Math.max(0L, searchedNanos);
        if (ranNanos >= WORTH_PER_SEARCH * searched) {
            return 0L;
        }
        return Math.min(QUIET_CAP_NANOS, QUIET_PER_SEARCH * searched);
    }
}
