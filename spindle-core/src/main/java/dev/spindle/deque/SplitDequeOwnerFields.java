package dev.spindle.deque;

/** Field-layout base of {@link SplitDeque}; see SplitDequePad0 for the layout. */
abstract class SplitDequeOwnerFields<E> extends SplitDequePad0 {
    /** Index of the next free slot. Written by the owner (opaque), read by thieves as a hint. */
    int top;
    /** The owner's copy of split: only the owner ever changes split, so this is always exact. */
    int ownerSplit;
    /** The ring of slots, a power of two long. Replaced (never modified afterwards) when it grows. */
    Object[] slots;
    /** Pushes so far (wrapping), for the ring's periodic renewal ({@link SplitDeque#grow}). */
    int pushes;
    /** Pushes between two renewals, minus one: 255 at first, doubled at each renewal up to 64K - 1. */
    int renewMask = 255;
}
