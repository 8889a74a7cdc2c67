package dev.spindle.future;

import dev.spindle.runtime.Task;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A promoted {@link Latent} entry: a task on the owner's deque (or the pool's submission queue)
 * that two kinds of thread may try to run — whoever takes it from the deque, and the entry's
 * toucher finding it not started — so running begins with a claim: one CAS, off the owner's
 * fast path. A task claimed by its toucher stays in the deque; whoever takes it later fails the
 * claim and drops it.
 */
abstract class ClaimableTask extends Task<Object> {
    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(ClaimableTask.class, "claimed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int claimed;
    /** The thread that claimed it. */
    volatile Thread runner;
    /**
     * When the owner promoted it ({@link System#nanoTime()}); written before the push that
     * publishes the task, so a thief that took it reads the value written.
     */
    long promotedAt;

    @Override
    protected final long promotedAt() {
        return promotedAt;
    }

    @Override
    protected final boolean tryClaim() {
        if (claimed == 0 && CLAIMED.compareAndSet(this, 0, 1)) {
            runner = Thread.currentThread();
            return true;
        }
        return false;
    }

    /** True once some thread claimed the task (so it no longer offers work). */
    @Override
    protected final boolean isClaimed() {
        return claimed != 0;
    }
}
