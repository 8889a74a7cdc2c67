package dev.spindle.future;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Worker;

import java.util.ArrayDeque;

/** Field layout: the owner's fields of {@link LatentStack}, apart from the request flag thieves write. */
abstract class LatentStackOwnerFields {
    /**
     * Latent entries in {@code [base, top)}; index 0 is never used, so {@code slots[top - 1]} is
     * always in range. A future of the object API is its body; a woven call is its
     * {@link FutureCall} record (user bodies are never {@link Latent}). Beside each, in
     * {@link #numbers}, the number it was created with: unique on this stack and increasing from
     * {@code base} to {@code top}, which is how a future's {@link ExposedFutures} is found.
     */
    Object[] slots = new Object[64];
    long[] numbers = new long[64];
    /** Numbers of futures run out of order for their touch, innermost last (see {@link LatentStack#runOutOfOrder}). */
    long[] running = new long[8];
    int runningCount;
    /** The table new futures are recorded in: made with the stack and again by each exposure that retires one ({@link LatentStack#retireRegion}). */
    ExposedFutures region;
    /** Tables that latent futures may belong to, oldest first (see {@link LatentStack#regionOf}). */
    final ArrayDeque<ExposedFutures> openRegions = new ArrayDeque<>();
    int base = 1;
    /** Changed through {@link LatentStack#moveTop} or right before its {@code rebound}, which keep the worker's mirror in step. */
    int top = 1;
    /** Bumped whenever positions are reused or moved, so a region mark knows its positions are stale. */
    int epoch;
    /**
     * Positions at or above it hold futures created inside the worker's innermost stolen task;
     * below it, futures of the frames that task runs on top of. Entries only ever move down, so
     * "at or above the floor" stays a safe test (an entry may only look older than it is).
     */
    int floor = 1;
    /** {@code max(base, floor) + keep}: a new future runs at its creation while {@code top} is at or above it. */
    int runNowAt;
    /** Free list of {@link FutureCall} records, so deferring a woven call allocates nothing in steady state. */
    FutureCall[] spareCalls = new FutureCall[16];
    int spareCallCount;
    long created;
    /**
     * What {@link LatentStack#admit} decided for the future being created, left for its handle's
     * constructor to read at once (a method cannot return five values, and a record would be
     * allocated): the handle's region, body and cell, and a primitive future's value as raw bits.
     * Written after the body ran at its creation, so futures created inside it do not overwrite
     * them before they are read.
     */
    ExposedFutures madeRegion;
    Object madeBody;
    Object madeCell;
    long madeBits;
    /**
     * Futures between two renewals of {@link #slots}, minus one: 255 at first, doubled at each
     * renewal up to 64K - 1; the next push numbered {@link #renewAt} or more renews the array
     * (see {@link LatentStack#renewSlots}).
     */
    long renewMask = 255;
    long renewAt = 256;
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
