package dev.spindle.bench.futures;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * How a baseline variant of the futures suite creates and waits for a future: the programs are
 * written once against this interface with an explicit threshold, and each baseline plugs in its
 * framework. (The {@code spindle} variant does not use it: it calls {@code Spindle.future}
 * directly, at every call, with no threshold.)
 */
public interface Spawner {

    /**
     * Starts {@code body} asynchronously.
     *
     * @param body the work
     * @param <T>  result type
     * @return its future
     */
    <T> Future<T> spawn(Supplier<T> body);

    /**
     * Waits for a future from {@link #spawn}.
     *
     * @param f   the future
     * @param <T> result type
     * @return its value
     */
    <T> T join(Future<T> f);

    /** ForkJoinPool: a task forked on the current worker's queue, joined with help. */
    Spawner FJP = new Spawner() {
        @Override
        public <T> Future<T> spawn(Supplier<T> body) {
            return ForkJoinTask.adapt(body::get).fork();
        }

        @Override
        public <T> T join(Future<T> f) {
            return ((ForkJoinTask<T>) f).join();
        }
    };

    /** The seed's J5Future with a thread per future. */
    Spawner THREAD_PER_FUTURE = new Spawner() {
        @Override
        public <T> Future<T> spawn(Supplier<T> body) {
            FutureTask<T> t = new FutureTask<>(body::get);
            Thread th = new Thread(t);
            th.setDaemon(true);
            th.start();
            return t;
        }

        @Override
        public <T> T join(Future<T> f) {
            return getUninterruptibly(f);
        }
    };

    /**
     * The seed's J5Future on a ThreadPoolExecutor.
     *
     * @param pool the executor
     * @return the spawner
     */
    static Spawner executor(ExecutorService pool) {
        return new Spawner() {
            @Override
            public <T> Future<T> spawn(Supplier<T> body) {
                return pool.submit(body::get);
            }

            @Override
            public <T> T join(Future<T> f) {
                return getUninterruptibly(f);
            }
        };
    }

    /**
     * CompletableFuture.supplyAsync on an executor.
     *
     * @param pool the executor
     * @return the spawner
     */
    static Spawner completable(ExecutorService pool) {
        return new Spawner() {
            @Override
            public <T> Future<T> spawn(Supplier<T> body) {
                return CompletableFuture.supplyAsync(body, pool);
            }

            @Override
            public <T> T join(Future<T> f) {
                return ((CompletableFuture<T>) f).join();
            }
        };
    }

    private static <T> T getUninterruptibly(Future<T> f) {
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException r) {
                        throw r;
                    }
                    if (c instanceof Error err) {
                        throw err;
                    }
                    throw new CompletionException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
