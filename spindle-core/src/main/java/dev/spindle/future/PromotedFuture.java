package dev.spindle.future;

import dev.spindle.runtime.Worker;

/**
 * A {@link LazyFuture} its owner promoted: a task on the owner's deque (or the pool's submission
 * queue) that any worker may steal, and that any toucher may claim and run itself.
 *
 * <p>Running starts with a claim ({@link ClaimableTask}). The body's outcome is stored into the future's cell (release) before the task completes, so a
 * thread that saw the task complete, or reads the cell with acquire, sees the final outcome.
 */
final class PromotedFuture extends ClaimableTask {
    final LazyFuture<?> future;
    private Object body;
    private final LatentStack promoter;
    /** Set by a toucher that runs the body itself: its failure is then observed by that touch. */
    private boolean byTouch;

    PromotedFuture(LazyFuture<?> future, Object body, LatentStack promoter) {
        this.future = future;
        this.body = body;
        this.promoter = promoter;
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
            future.publish(o);
            if (!byTouch) {
                promoter.pool.untouchedFailures().add(future, o);
            }
            throw ex;
        }
        future.publish(Outcome.encode(r));
        return null;
    }

    /**
     * A toucher: runs the body here if nobody started it, otherwise waits for it — on a worker of
     * the promoting pool helping only with the body's own computation ({@link Worker#awaitFuture}),
     * elsewhere blocking. On return the future's cell holds its final outcome.
     */
    void runOrAwait() {
        if (runner == Thread.currentThread() && !isDone()) {
            throw new IllegalStateException("future touched from inside its own body: " + future);
        }
        if (tryClaim()) {
            byTouch = true;
            runClaimed();
            return;
        }
        if (Thread.currentThread() instanceof Worker w && w.pool() == promoter.pool) {
            w.awaitFuture(this);
        } else {
            quietlyJoin();
        }
    }

    /** Cancels only if the body has not started. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!tryClaim()) {
            return false;
        }
        body = null;
        future.publish(Outcome.CANCELLED);
        return super.cancel(mayInterruptIfRunning);
    }
}
