package dev.spindle.deque;

/** Field-layout base of {@link SplitDeque}; see SplitDequePad0 for the layout. */
abstract class SplitDequeSharedFields<E> extends SplitDequePad1<E> {
    /** Packed (base, shared length, tag); see SplitDeque. Accessed through a VarHandle. */
    volatile long state;
    /** Set by a thief that found the shared region empty; cleared by the owner when it shares. */
    volatile int shareRequested;
}
