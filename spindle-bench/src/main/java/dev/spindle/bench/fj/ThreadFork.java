package dev.spindle.bench.fj;

/**
 * The naive baseline's fork: a new platform thread per fork above the threshold, joined with
 * {@link Thread#join()}. A failure in the thread is rethrown by {@link #join(Thread)}.
 */
final class ThreadFork {
    /**
     * Most threads the baseline may have alive at once. Fib(40) with threshold 13 needs far more
     * (it exhausted this machine's ~32k thread limit and starved every other process); the
     * baseline then fails fast with a clear message instead.
     */
    static final int MAX_LIVE_THREADS = 8192;
    /** The budget in force (tests lower it to check the refusal quickly). */
    static volatile int liveThreadBudget = MAX_LIVE_THREADS;
    private static final java.util.concurrent.atomic.AtomicInteger LIVE = new java.util.concurrent.atomic.AtomicInteger();

    private ThreadFork() {
    }

    static Thread start(Runnable body) {
        int budget = liveThreadBudget;
        if (LIVE.incrementAndGet() > budget) {
            LIVE.decrementAndGet();
            throw new IllegalStateException("the thread-per-fork baseline needs more than "
                    + budget + " live threads for this problem; not run");
        }
        Failing t = new Failing(body);
        try {
            t.start();
        } catch (Throwable e) {
            LIVE.decrementAndGet();
            throw e;
        }
        return t;
    }

    /**
     * Runs {@code b} in a new thread and {@code a} here; always joins the thread, so nothing is
     * left running when this returns or throws. A failure of {@code a} wins over one of {@code b}.
     */
    static void both(Runnable a, Runnable b) {
        Thread t = start(b);
        try {
            a.run();
        } catch (Throwable e) {
            try {
                join(t);
            } catch (Throwable other) {
                if (other != e) {
                    e.addSuppressed(other);
                }
            }
            throw e;
        }
        join(t);
    }

    static void join(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (t instanceof Failing f && f.failure != null) {
            if (f.failure instanceof RuntimeException re) {
                throw re;
            }
            if (f.failure instanceof Error er) {
                throw er;
            }
            throw new IllegalStateException(f.failure);
        }
    }

    private static final class Failing extends Thread {
        private final Runnable body;
        volatile Throwable failure;

        Failing(Runnable body) {
            super(null, null, "threads-baseline", 0, false);
            this.body = body;
        }

        @Override
        public void run() {
            try {
                body.run();
            } catch (Throwable e) {
                failure = e;
            } finally {
                LIVE.decrementAndGet();
            }
        }
    }
}
