package dev.spindle.future;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;

/** Field layout: the flag other threads set to ask the owner to expose latent futures, on its own line. */
abstract class LatentStackRequest extends LatentStackPad {
    /** {@link LatentStack#NONE}, {@link LatentStack#ONE} or {@link LatentStack#ALL}. */
    volatile int requested;
    @SuppressWarnings("unused") private long q0, q1, q2, q3, q4, q5, q6, q7;

    LatentStackRequest(Worker worker, SpindlePool pool, Thread owner) {
        super(worker, pool, owner);
    }
}
