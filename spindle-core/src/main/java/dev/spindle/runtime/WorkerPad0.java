package dev.spindle.runtime;

/**
 * Field layout for {@link Worker}, JCTools style: HotSpot lays out a superclass's fields before its
 * subclass's, so a chain of small classes keeps the fields only the worker writes on every future
 * (its serial futures' count, the latent stack's mirror, the directive's room) off the cache lines
 * that other workers read on every steal attempt (its deque, its latent stack, its offered loop,
 * whether it retired).
 *
 *   Thread              the JDK's fields
 *   WorkerPad0          64 bytes of padding
 *   WorkerOwnerFields   written by the worker alone, read by it on its hot paths
 *   WorkerPad1          64 bytes of padding
 *   Worker              read by other workers (final, or written rarely)
 *
 * Without it the two sets shared a line in some JVMs and not in others, as the object's address
 * fell: a thief's scan pulled the line away at every pass, and the owner's next count missed
 * (PERFORMANCE.md, futures suite, "Twenty-fifth session").
 */
abstract class WorkerPad0 extends Thread {
    @SuppressWarnings("unused") private long p00, p01, p02, p03, p04, p05, p06, p07;

    WorkerPad0(ThreadGroup group, String name) {
        super(group, null, name, 0L, false);
    }
}
