package dev.spindle.runtime;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Test helper: runs a body on a worker of a pool and waits for it, bounded. */
public final class OnWorker {
    private OnWorker() {
    }

    /**
     * Runs {@code body} on a worker of {@code pool} and returns its result.
     *
     * @param pool the pool
     * @param body the body
     * @param <T>  result type
     * @return the body's result
     * @throws Exception the {@link Task#get(long, TimeUnit)} failure: an ExecutionException
     *                   wrapping what the body threw, or a TimeoutException after 60 s
     */
    public static <T> T call(SpindlePool pool, Supplier<T> body) throws Exception {
        Task<T> t = new Task<>() {
            @Override
            protected T compute() {
                return body.get();
            }
        };
        pool.submit(t);
        return t.get(60, TimeUnit.SECONDS);
    }
}
