package dev.spindle.deque;

/**
 * Field layout for SplitDeque, JCTools style: HotSpot lays out superclass fields before subclass
 * fields, so a chain of small classes places the owner's fields and the thieves' fields on
 * different cache lines, with a cache line of padding before, between and after.
 *
 *   SplitDequePad0          64 bytes of padding
 *   SplitDequeOwnerFields   top, split copy, slots      (written by the owner only)
 *   SplitDequePad1          64 bytes of padding
 *   SplitDequeSharedFields  state, shareRequested        (written by thieves, CAS'd by both)
 *   SplitDequePad2          64 bytes of padding
 */
abstract class SplitDequePad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}
