package dev.spindle.deque;

/** Field-layout base of {@link SplitDeque}; see SplitDequePad0 for the layout. */
abstract class SplitDequePad1<E> extends SplitDequeOwnerFields<E> {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}
