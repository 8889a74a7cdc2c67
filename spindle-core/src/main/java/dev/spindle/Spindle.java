package dev.spindle;

import dev.spindle.forkjoin.ForkJoin;
import dev.spindle.forkjoin.Pair;
import dev.spindle.future.DoubleFuture;
import dev.spindle.future.IntFuture;
import dev.spindle.future.LazyFuture;
import dev.spindle.future.LongFuture;
import dev.spindle.future.Scope;
import dev.spindle.runtime.SpindlePool;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

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
 *
 * <p>Lazy futures: the runtime, not the programmer, decides which ones run in parallel.
 *
 * <pre>{@code
 * static long fib(int n) {
 *     if (n < 2) return n;
 *     LazyFuture<Long> a = Spindle.future(() -> fib(n - 1));
 *     long b = fib(n - 2);
 *     return a.touch() + b;
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
     * Creates a lazy future of {@code body}: it runs at the latest when touched, on the touching
     * thread, unless the runtime exposed it to an idle worker first (see {@link LazyFuture}).
     * On a worker the future belongs to that worker's pool; elsewhere to the default pool.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static <T> LazyFuture<T> future(Supplier<? extends T> body) {
        return LazyFuture.of(body);
    }

    /**
     * {@link #future(Supplier)} for a {@code long} body: {@link LongFuture#touchLong()} returns the
     * value unboxed, and no path of the owner's touch boxes it (see {@link LongFuture}).
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static LongFuture futureLong(LongSupplier body) {
        return LongFuture.of(body);
    }

    /**
     * {@link #future(Supplier)} for an {@code int} body (see {@link IntFuture}).
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static IntFuture futureInt(IntSupplier body) {
        return IntFuture.of(body);
    }

    /**
     * {@link #future(Supplier)} for a {@code double} body (see {@link DoubleFuture}).
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static DoubleFuture futureDouble(DoubleSupplier body) {
        return DoubleFuture.of(body);
    }

    /**
     * Creates a lazy future of {@code fn} applied to {@code arg} — the <em>call form</em>. It
     * behaves as {@code future(() -> fn.apply(arg))} with {@code arg} evaluated now, but where
     * {@code fn} captures nothing (a method reference such as {@code Tree::sum}, or a lambda that
     * uses only its parameter) a future that runs at its creation allocates nothing, where the
     * supplier form allocates at least its lambda.
     *
     * <pre>{@code
     * static long fib(int n) {
     *     if (n < 2) return n;
     *     LongFuture a = Spindle.futureLong(Fib::fib, n - 1);   // no lambda, no allocation
     *     long b = fib(n - 2);
     *     return a.touchLong() + b;
     * }
     * }</pre>
     *
     * @param fn  the function
     * @param arg its argument
     * @param <A> argument type
     * @param <T> result type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A, T> LazyFuture<T> future(Function<? super A, ? extends T> fn, A arg) {
        return LazyFuture.of(fn, arg);
    }

    /**
     * {@link #future(Function, Object)} for a {@code long} result.
     *
     * @param fn  the function
     * @param arg its argument
     * @param <A> argument type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A> LongFuture futureLong(ToLongFunction<? super A> fn, A arg) {
        return LongFuture.of(fn, arg);
    }

    /**
     * {@link #future(Function, Object)} for an {@code int} argument and a {@code long} result.
     *
     * @param fn  the function
     * @param arg its argument
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static LongFuture futureLong(IntToLongFunction fn, int arg) {
        return LongFuture.of(fn, arg);
    }

    /**
     * {@link #future(Function, Object)} for an {@code int} result.
     *
     * @param fn  the function
     * @param arg its argument
     * @param <A> argument type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A> IntFuture futureInt(ToIntFunction<? super A> fn, A arg) {
        return IntFuture.of(fn, arg);
    }

    /**
     * {@link #future(Function, Object)} for an {@code int} argument and an {@code int} result.
     *
     * @param fn  the function
     * @param arg its argument
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static IntFuture futureInt(IntUnaryOperator fn, int arg) {
        return IntFuture.of(fn, arg);
    }

    /**
     * {@link #future(Function, Object)} for a {@code double} result.
     *
     * @param fn  the function
     * @param arg its argument
     * @param <A> argument type
     * @return the future
     * @throws NullPointerException if fn is null
     */
    public static <A> DoubleFuture futureDouble(ToDoubleFunction<? super A> fn, A arg) {
        return DoubleFuture.of(fn, arg);
    }

    /**
     * Creates a lazy future of a callable; a checked exception of the body reaches the toucher
     * wrapped in {@link java.util.concurrent.CompletionException}.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static <T> LazyFuture<T> futureCall(Callable<? extends T> body) {
        return LazyFuture.ofCallable(body);
    }

    /**
     * Runs {@code body} with a {@link Scope}; returns when every future forked through the scope
     * has finished, raising the failures of those nobody touched.
     *
     * <pre>{@code
     * Spindle.scope(s -> {
     *     for (Path p : files) s.futureCall(() -> Files.deleteIfExists(p));
     * });   // every delete has finished here
     * }</pre>
     *
     * @param body the scope's body
     */
    public static void scope(Consumer<? super Scope> body) {
        Scope.runVoid(body);
    }

    /**
     * {@link #scope(Consumer)} for a body with a result.
     *
     * @param body the scope's body
     * @param <R>  result type
     * @return the body's result, once every future of the scope has finished
     */
    public static <R> R scopeValue(Function<? super Scope, ? extends R> body) {
        return Scope.run(body);
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
