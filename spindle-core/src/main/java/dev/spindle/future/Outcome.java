package dev.spindle.future;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * How a future ended, as stored in its cell: a failure, a cancellation, a {@code null} result, or
 * a result that could be mistaken for another cell state (a body, a promoted task). Any other
 * result is stored as itself, so a successful future allocates nothing here.
 */
final class Outcome {
    static final Outcome NULL = new Outcome(null, null);
    static final Outcome CANCELLED = new Outcome(null, null);
    private static final int MAX_TOUCH_SITES = 8;

    final Object value;
    final Throwable failure;
    /** Set once somebody has been given the failure: a touch, a scope, or the untouched-failure report. */
    volatile boolean observed;

    private Outcome(Object value, Throwable failure) {
        this.value = value;
        this.failure = failure;
    }

    static Outcome failed(Throwable ex) {
        return new Outcome(null, ex);
    }

    /** The cell value for a successful result. */
    static Object encode(Object r) {
        if (r == null) {
            return NULL;
        }
        if (r instanceof Supplier<?> || r instanceof Callable<?> || r instanceof Outcome
                || r instanceof PromotedFuture || r instanceof LatentStack) {
            return new Outcome(r, null);
        }
        return r;
    }

    /** True if a cell value is final. */
    static boolean isFinal(Object c) {
        return c instanceof Outcome || !(c instanceof PromotedFuture || c instanceof LatentStack || isBody(c));
    }

    static boolean isBody(Object c) {
        return c instanceof Supplier<?> || c instanceof Callable<?>;
    }

    static Object invoke(Object body) throws Exception {
        return body instanceof Supplier<?> s ? s.get() : ((Callable<?>) body).call();
    }

    /** A touch's view of a final cell value: the result, or the failure thrown as the issue says. */
    static Object report(Object c) {
        if (!(c instanceof Outcome o)) {
            return c;
        }
        if (o == CANCELLED) {
            throw new CancellationException("future was cancelled");
        }
        Throwable ex = o.failure;
        if (ex == null) {
            return o.value;
        }
        o.observed = true;
        throw forTouch(ex);
    }

    /** Unchecked failures as themselves with a {@link TouchSite} added; checked ones wrapped. */
    static RuntimeException forTouch(Throwable ex) {
        if (ex instanceof RuntimeException || ex instanceof Error) {
            addTouchSite(ex);
            throw sneaky(ex);
        }
        return new CompletionException(ex);
    }

    /** Adds the calling thread's stack as a {@link TouchSite}, up to a few per exception. */
    static void addTouchSite(Throwable ex) {
        if (ex.getSuppressed().length < MAX_TOUCH_SITES) {
            ex.addSuppressed(new TouchSite(Thread.currentThread()));
        }
    }

    @SuppressWarnings("unchecked")
    static <X extends Throwable> RuntimeException sneaky(Throwable t) throws X {
        throw (X) t;
    }
}
