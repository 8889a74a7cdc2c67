package dev.spindle.deque;

/** Field-layout base of {@link SplitDeque}; see SplitDequePad0 for the layout. */
abstract class SplitDequePad2<E> extends SplitDequeSharedFields<E> {
    long p20, p21, p22, p23, p24, p25, p26, p27;
}
