package dev.spindle.future;

import dev.spindle.runtime.Task;

/**
 * An entry of a {@link LatentStack}: work created on the owner's thread that nobody else can see
 * yet — a {@link LazyFuture} of the object API, or a {@link FutureCall} of woven code.
 */
abstract class Latent {
    /**
     * Owner, already removed from its stack: wraps this entry in a task other workers can run,
     * published so that a thread reading the entry's state with acquire sees the built task.
     *
     * @param stack the owner's stack
     * @return the task to push
     */
    abstract ClaimableTask promote(LatentStack stack);

    /**
     * Owner, already removed from its stack, outside any touch: runs the work here (NEVER mode,
     * end of a region).
     *
     * @param stack the owner's stack
     */
    abstract void runDetached(LatentStack stack);

    /** Where this entry was created, for the promotion log. */
    String site() {
        return "(unknown; run with -Dspindle.debug.promotions=true)";
    }
}
