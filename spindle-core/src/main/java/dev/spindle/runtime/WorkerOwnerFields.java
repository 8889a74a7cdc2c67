package dev.spindle.runtime;

/**
 * The fields of a {@link Worker} that only the worker itself writes, and reads on its hot paths
 * (see {@link WorkerPad0} for the layout). The request hint is here too: other threads write it
 * once per request, and the worker reads it at every woven future.
 */
abstract class WorkerOwnerFields extends WorkerPad0 {
    /** The xorshift state of the worker's random choice of a first victim. */
    int seed;

    /** Set by {@code Worker.scan}: the member it claimed of the descriptor whose completion it returned. */
    int foundMember;

    /**
     * The end ({@link System#nanoTime()}) of this worker's quiet window, or 0 for none: until then
     * its searches ask no latent stack for work, because the last promoted piece it ran was too
     * small to pay for its search ({@link RequestBackoff}). Owner-only.
     */
    long quietUntil;

    /** Whether this worker's quiet window is counted in its pool's {@code quietWorkers}. */
    boolean quietCounted;

    /** The pool's pinning epoch this worker last applied; -1 before its first task. */
    int pinningSeen = -1;

    /** Owner: whether {@code Worker.parkBinding} was prepared from this worker's affinity. */
    boolean parkBindingPrepared;

    /**
     * Woven futures ({@code FutureCall}): how many more frames on the current call path may defer
     * a call — the spawn decision defers only near the top of a task's recursion. Starts at
     * {@code Worker.deferDepth} for each task this worker runs; each frame that defers a call takes one,
     * and gives it back when it has the result. Owner-only, and on the Worker itself so that the
     * decision at every woven call is one load from the current thread.
     */
    int deferRoom;

    /**
     * Futures a woven serial method made in place on this worker ({@code SerialFutures}): counted
     * here, not in the latent stack's {@code created}, because there the count cost Fib's serial
     * method ~0.43 ns per future against ~0.17 here (PERFORMANCE.md, futures suite, "Twenty-third
     * session"). Owner-only, incremented by {@code SerialFutures.countMadeInPlace} through a
     * VarHandle (so that no method call stands between a serial method and the increment); read
     * racily by the statistics.
     */
    long madeInPlace;

    /**
     * The futures runtime's mirror of its latent stack's {@code top < runNowAt}: the stack holds
     * fewer latent futures above its floor than it keeps (or spawn=always), so a future created now
     * would be kept latent. The stack writes it wherever its top or bound changes
     * ({@code LatentStack.mirrorRoom}); a woven serial method's prologue reads it here, with the
     * request hint, instead of reaching the stack through this worker: Fib at one worker 118 →
     * 110 ms, TreeSum-16M 38.1 → 32.7 (PERFORMANCE.md, futures suite, "Twenty-fourth session").
     * Owner-only.
     */
    boolean latentRoom;

    /**
     * Woven futures: a deferred call runs at its read on the room its frame lent it (see
     * {@code LatentStack.lendRoomForRead}); no call inside it lends again. Owner-only; cleared for
     * each task this worker runs, like {@link #deferRoom}.
     */
    boolean roomLent;

    /**
     * Woven futures: set by a thread that asked this worker's latent stack for work (after its
     * request is visible there), cleared by this worker just before it looks at the request. A
     * mirror on the Worker, so that a woven call made at its declaration notices a hungry worker
     * with one load from the current thread and no store (a per-call counter instead cost a
     * third of Knapsack's time at one worker).
     */
    volatile int requestHint;

    WorkerOwnerFields(ThreadGroup group, String name) {
        super(group, name);
    }
}
