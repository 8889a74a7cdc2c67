package dev.spindle.future;

/**
 * Added as a suppressed exception to a future's failure each time it is re-thrown by a touch: its
 * stack trace is the touch's, so a failure seen far from the body still says where it was
 * awaited. At most eight are added to one failure.
 */
public final class TouchSite extends Throwable {
    private static final long serialVersionUID = 1L;

    TouchSite(Thread thread) {
        super("future touched on thread " + thread.getName(), null, false, true);
    }
}
