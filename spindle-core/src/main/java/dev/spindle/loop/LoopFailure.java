package dev.spindle.loop;

/**
 * The failure state of one loop (or region) execution: the first exception stops new chunks from
 * starting; later ones are added to it as suppressed; the caller rethrows it at the end.
 */
final class LoopFailure {
    /** Read before every chunk; set once, by the first failure. */
    volatile boolean stopped;
    private Throwable first;

    /** Records a failure; returns true if it was the first. */
    synchronized boolean add(Throwable t) {
        stopped = true;
        if (first == null) {
            first = t;
            return true;
        }
        if (first != t) {
            first.addSuppressed(t);
        }
        return false;
    }

    /** After every participant returned: rethrows the first failure as itself, if any. */
    void rethrow() {
        Throwable t;
        synchronized (this) {
            t = first;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new java.util.concurrent.CompletionException(t);
        }
    }
}
