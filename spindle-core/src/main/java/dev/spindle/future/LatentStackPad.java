package dev.spindle.future;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;

/** Field layout: a cache line between the owner's fields and the request flag. */
abstract class LatentStackPad extends LatentStackOwnerFields {
    @SuppressWarnings("unused") private long p0, p1, p2, p3, p4, p5, p6, p7;

    LatentStackPad(Worker worker, SpindlePool pool, Thread owner) {
        super(worker, pool, owner);
    }
}
