package dev.spindle.forkjoin;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Binary fork/join in the style of Cilk's spawn/sync and Rayon's {@code join}: run {@code a} here,
 * make {@code b} stealable, return both results. If nobody stole {@code b} the caller runs it
 * right after {@code a}, without touching its completion state.
 *
 * <pre>{@code
 * static long fib(int n) {
 *     if (n <= 13) return seqFib(n);
 *     return ForkJoin.join(() -> fib(n - 1), () -> fib(n - 2), Long::sum);
 * }
 * }</pre>
 *
 * <p>Called from a thread that is not a worker, the whole join runs inside the
 * {@link SpindlePool#defaultPool() default pool} and the caller blocks. Neither branch is left
 * running when {@code join} returns or throws: if {@code a} throws, {@code b} is either discarded
 * unstarted or waited for, and its own failure, if any, is added to {@code a}'s as suppressed.
 */
public final class ForkJoin {
    private ForkJoin() {
    }

    /**
     * Runs both suppliers, potentially in parallel.
     *
     * @param a   runs on the calling thread
     * @param b   made stealable
     * @param <A> first type
     * @param <B> second type
     * @return both results
     */
    public static <A, B> Pair<A, B> join(Supplier<A> a, Supplier<B> b) {
        return join(a, b, Pair::new);
    }

    /**
     * Runs both runnables, potentially in parallel.
     *
     * @param a runs on the calling thread
     * @param b made stealable
     */
    public static void join(Runnable a, Runnable b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        if (!(Thread.currentThread() instanceof Worker w)) {
            SpindlePool.defaultPool().invoke(new RunnableTask(() -> join(a, b)));
            return;
        }
        // Written out rather than delegated to the Supplier form: no wrapping lambdas between the
        // caller and its branches, so the JIT inlines the same way whatever the worker count.
        RunnableTask tb = new RunnableTask(b);
        tb.fork();
        try {
            a.run();
        } catch (Throwable ex) {
            settleAfterFailure(w, tb, ex);
            throw ex;
        }
        if (w.tryUnfork(tb)) {
            b.run();
        } else {
            tb.join();
        }
    }

    /** {@code a} threw: drop {@code b} if unstarted, else wait for it and keep its failure too. */
    private static void settleAfterFailure(Worker w, Task<?> tb, Throwable ex) {
        if (!w.tryUnfork(tb)) {
            tb.quietlyJoin();
            Throwable other = tb.getException();
            if (other != null && other != ex) {
                ex.addSuppressed(other);
            }
        }
    }

    /**
     * Runs both suppliers, potentially in parallel, and combines their results.
     *
     * @param a       runs on the calling thread
     * @param b       made stealable
     * @param combine applied to both results
     * @param <A>     first type
     * @param <B>     second type
     * @param <R>     result type
     * @return {@code combine(a.get(), b.get())}
     */
    public static <A, B, R> R join(Supplier<A> a, Supplier<B> b, BiFunction<? super A, ? super B, ? extends R> combine) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(combine, "combine");
        if (!(Thread.currentThread() instanceof Worker w)) {
            return SpindlePool.defaultPool().invoke(new SupplierTask<>(() -> join(a, b, combine)));
        }
        SupplierTask<B> tb = new SupplierTask<>(b);
        tb.fork();
        A ra;
        try {
            ra = a.get();
        } catch (Throwable ex) {
            settleAfterFailure(w, tb, ex);
            throw ex;
        }
        B rb = w.tryUnfork(tb) ? b.get() : tb.join();
        return combine.apply(ra, rb);
    }

    /**
     * Runs every callable, potentially in parallel, and returns the results in order. The first
     * failure (in list order) is thrown after all have finished; checked exceptions arrive wrapped
     * in {@link java.util.concurrent.CompletionException}.
     *
     * @param bodies the callables
     * @param <T>    result type
     * @return the results, in the order of {@code bodies}
     */
    public static <T> List<T> invokeAll(List<? extends Callable<? extends T>> bodies) {
        Objects.requireNonNull(bodies, "bodies");
        if (!(Thread.currentThread() instanceof Worker)) {
            return SpindlePool.defaultPool().invoke(new SupplierTask<>(() -> invokeAll(bodies)));
        }
        int n = bodies.size();
        List<CallTask<T>> tasks = new ArrayList<>(n);
        for (Callable<? extends T> c : bodies) {
            tasks.add(new CallTask<>(Objects.requireNonNull(c, "bodies contains null")));
        }
        Task.invokeAll(tasks.toArray(new Task<?>[0]));
        List<T> out = new ArrayList<>(n);
        for (CallTask<T> t : tasks) {
            out.add(t.join());
        }
        return out;
    }

    static final class SupplierTask<T> extends Task<T> {
        private final Supplier<T> body;

        SupplierTask(Supplier<T> body) {
            this.body = body;
        }

        @Override
        protected T compute() {
            return body.get();
        }
    }

    static final class RunnableTask extends Task<Void> {
        private final Runnable body;

        RunnableTask(Runnable body) {
            this.body = body;
        }

        @Override
        protected Void compute() {
            body.run();
            return null;
        }
    }

    static final class CallTask<T> extends Task<T> {
        private final Callable<? extends T> body;

        CallTask(Callable<? extends T> body) {
            this.body = body;
        }

        @Override
        protected T compute() throws Exception {
            return body.call();
        }
    }
}
