package dev.spindle.future;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;

/** Field layout: the owner's fields of {@link LatentStack}, apart from the request flag thieves write. */
abstract class LatentStackOwnerFields {
    /** Latent futures in {@code [base, top)}; index 0 is never used, so {@code slots[top - 1]} is always in range. */
    Object[] slots = new Object[64];
    int base = 1;
    int top = 1;
    /** Bumped whenever positions are reused or moved, so a region mark knows its positions are stale. */
    int epoch;
    /**
     * Positions at or above it hold futures created inside the worker's innermost stolen task;
     * below it, futures of the frames that task runs on top of. Entries only ever move down, so
     * "at or above the floor" stays a safe test (an entry may only look older than it is).
     */
    int floor = 1;
    /** Free list of {@link FutureCall} records, so deferring a woven call allocates nothing in steady state. */
    FutureCall[] spareCalls = new FutureCall[16];
    int spareCallCount;
    long created;
    long promoted;
    long cancelled;
    long stolen;
    final Worker worker;
    final SpindlePool pool;
    final Thread owner;

    LatentStackOwnerFields(Worker worker, SpindlePool pool, Thread owner) {
        this.worker = worker;
        this.pool = pool;
        this.owner = owner;
    }
}
