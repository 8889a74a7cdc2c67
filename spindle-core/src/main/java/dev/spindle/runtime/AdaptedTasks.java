package dev.spindle.runtime;

import java.util.Objects;
import java.util.concurrent.Callable;

/** Task adapters for the ExecutorService methods. */
final class AdaptedTasks {
    private AdaptedTasks() {
    }

    /** A Callable as a task ({@code submit(Callable)}). */
    static final class CallableTask<T> extends Task<T> {
        private final Callable<? extends T> body;

        CallableTask(Callable<? extends T> body) {
            this.body = Objects.requireNonNull(body, "callable");
        }

        @Override
        protected T compute() throws Exception {
            return body.call();
        }
    }

    /** A Runnable with a fixed result as a task ({@code submit(Runnable, T)}). */
    static final class RunnableTask<T> extends Task<T> {
        private final Runnable body;
        private final T value;

        RunnableTask(Runnable body, T value) {
            this.body = Objects.requireNonNull(body, "runnable");
            this.value = value;
        }

        @Override
        protected T compute() {
            body.run();
            return value;
        }
    }

    /**
     * A Runnable given to {@code execute}: nobody can join it, so a failure goes to the running
     * thread's uncaught-exception handler (the worker survives it; an Error still kills it).
     */
    static final class ExecuteTask extends Task<Void> {
        private final Runnable body;

        ExecuteTask(Runnable body) {
            this.body = Objects.requireNonNull(body, "command");
        }

        @Override
        protected Void compute() {
            try {
                body.run();
            } catch (RuntimeException ex) {
                Thread th = Thread.currentThread();
                th.getUncaughtExceptionHandler().uncaughtException(th, ex);
                throw ex;
            }
            return null;
        }
    }
}
