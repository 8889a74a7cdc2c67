package dev.spindle.future;

import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A {@link LazyFuture} that left its owner's stack without its handle: promoted into a task on
 * the owner's deque (or the pool's submission queue) that any worker may steal and any toucher
 * may claim and run itself, or run by the owner outside a touch. Found through its
 * {@link ExposedFutures} by the future's number.
 *
 * <p>Running starts with a claim ({@link ClaimableTask}). The body's outcome is stored into
 * {@link #outcome} (release) before the task completes, so a thread that saw the task complete,
 * or reads the outcome with acquire, sees everything the body did.
 */
final class PromotedFuture extends ClaimableTask {
    private static final VarHandle OUTCOME;

    static {
        try {
            OUTCOME = MethodHandles.lookup().findVarHandle(PromotedFuture.class, "outcome", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ExposedFutures region;
    final long number;
    private Object body;
    private final LatentStack promoter;
    /** Null until the body ended or the task was cancelled; then the cell value of the outcome. */
    private Object outcome;
    /** Set by a toucher that runs the body itself: its failure is then observed by that touch. */
    private boolean byTouch;

    PromotedFuture(ExposedFutures region, long number, Object body, LatentStack promoter) {
        this.region = region;
        this.number = number;
        this.body = body;
        this.promoter = promoter;
    }

    /** The outcome (a final cell value), or null while the body has not ended. */
    Object outcome() {
        return OUTCOME.getAcquire(this);
    }

    @Override
    protected Object compute() throws Exception {
        LatentStack here = LatentStack.current();
        if (here != promoter) {
            here.stolen++;
        }
        Object b = body;
        body = null;
        Object r;
        try {
            r = Outcome.invoke(b);
        } catch (Throwable ex) {
            Outcome o = Outcome.failed(ex);
            OUTCOME.setRelease(this, o);
            if (!byTouch) {
                promoter.pool.untouchedFailures().add(this, o);
            }
            throw ex;
        }
        OUTCOME.setRelease(this, Outcome.encode(r));
        return null;
    }

    /**
     * A toucher: runs the body here if nobody started it, otherwise waits for it — on a worker of
     * the promoting pool helping only with the body's own computation ({@link Worker#awaitFuture}),
     * elsewhere blocking. On return {@link #outcome()} is final.
     */
    void runOrAwait() {
        if (runIfUnclaimed()) {
            return;
        }
        if (Thread.currentThread() instanceof Worker w && w.pool() == promoter.pool) {
            w.awaitFuture(this);
        } else {
            quietlyJoin();
        }
    }

    /**
     * A toucher: runs the body here if nobody started it.
     *
     * @return true if it ran here ({@link #outcome()} is final), false if another thread has it
     * @throws IllegalStateException if called from inside the body
     */
    boolean runIfUnclaimed() {
        if (runner == Thread.currentThread() && !isDone()) {
            throw new IllegalStateException("future touched from inside its own body: " + describe());
        }
        if (tryClaim()) {
            byTouch = true;
            runClaimed();
            return true;
        }
        return false;
    }

    /** Owner, outside any touch (spawn=never, the end of a task): claims and runs the body here. */
    void runDetached() {
        if (tryClaim()) {
            try {
                runClaimed();
            } catch (Error e) {
                // already the outcome, and in the untouched-failure ledger: as for an exception
            }
        }
    }

    /** Cancels only if the body has not started. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!tryClaim()) {
            return false;
        }
        body = null;
        OUTCOME.setRelease(this, Outcome.CANCELLED);
        return super.cancel(mayInterruptIfRunning);
    }

    /** A handle on this future for reports, its outcome already known. */
    LazyFuture<?> view() {
        return LazyFuture.view(region, number, outcome());
    }

    String describe() {
        return "future #" + number + " of " + promoter;
    }
}
