package dev.spindle;

import dev.spindle.forkjoin.ForkJoin;
import dev.spindle.forkjoin.Pair;
import dev.spindle.runtime.SpindlePool;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The front door: static entry points that run on the current worker's pool, or on the
 * {@link SpindlePool#defaultPool() default pool} when called from any other thread.
 *
 * <pre>{@code
 * import static dev.spindle.Spindle.join;
 *
 * static long fib(int n) {
 *     if (n <= 13) return n < 2 ? n : fibSeq(n - 1) + fibSeq(n - 2);
 *     return join(() -> fib(n - 1), () -> fib(n - 2), Long::sum);
 * }
 * }</pre>
 */
public final class Spindle {
    private Spindle() {
    }

    /**
     * See {@link ForkJoin#join(Supplier, Supplier)}.
     *
     * @param a   runs on the calling thread
     * @param b   made stealable
     * @param <A> first type
     * @param <B> second type
     * @return both results
     */
    public static <A, B> Pair<A, B> join(Supplier<A> a, Supplier<B> b) {
        return ForkJoin.join(a, b);
    }

    /**
     * See {@link ForkJoin#join(Supplier, Supplier, BiFunction)}.
     *
     * @param a       runs on the calling thread
     * @param b       made stealable
     * @param combine applied to both results
     * @param <A>     first type
     * @param <B>     second type
     * @param <R>     result type
     * @return the combined result
     */
    public static <A, B, R> R join(Supplier<A> a, Supplier<B> b, BiFunction<? super A, ? super B, ? extends R> combine) {
        return ForkJoin.join(a, b, combine);
    }

    /**
     * See {@link ForkJoin#join(Runnable, Runnable)}.
     *
     * @param a runs on the calling thread
     * @param b made stealable
     */
    public static void join(Runnable a, Runnable b) {
        ForkJoin.join(a, b);
    }

    /**
     * See {@link ForkJoin#invokeAll(List)}.
     *
     * @param bodies the callables
     * @param <T>    result type
     * @return the results in order
     */
    public static <T> List<T> invokeAll(List<? extends Callable<? extends T>> bodies) {
        return ForkJoin.invokeAll(bodies);
    }

    /**
     * The default pool (see {@link SpindlePool#defaultPool()}).
     *
     * @return the default pool
     */
    public static SpindlePool defaultPool() {
        return SpindlePool.defaultPool();
    }
}
