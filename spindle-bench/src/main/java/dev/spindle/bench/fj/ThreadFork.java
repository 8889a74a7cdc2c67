package dev.spindle.bench.fj;

/**
 * The naive baseline's fork: a new platform thread per fork above the threshold, joined with
 * {@link Thread#join()}. A failure in the thread is rethrown by {@link #join(Thread)}.
 */
final class ThreadFork {
    private ThreadFork() {
    }

    static Thread start(Runnable body) {
        Failing t = new Failing(body);
        t.start();
        return t;
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
            }
        }
    }
}
