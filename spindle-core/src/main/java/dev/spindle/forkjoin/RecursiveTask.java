package dev.spindle.forkjoin;

import dev.spindle.runtime.Task;

/**
 * A result-bearing fork/join task; code written for {@link java.util.concurrent.RecursiveTask}
 * ports line for line (change the import and the pool).
 *
 * <pre>{@code
 * final class Fib extends RecursiveTask<Long> {
 *     final int n;
 *     Fib(int n) { this.n = n; }
 *     protected Long compute() {
 *         if (n <= 13) return seqFib(n);
 *         Fib f1 = new Fib(n - 1);
 *         f1.fork();
 *         long b = new Fib(n - 2).compute();
 *         return f1.join() + b;
 *     }
 * }
 * long r = new SpindlePool(4).invoke(new Fib(40));
 * }</pre>
 *
 * @param <V> result type
 */
public abstract class RecursiveTask<V> extends Task<V> {

    /** Constructor for subclasses. */
    protected RecursiveTask() {
    }

    /**
     * The computation.
     *
     * @return the result
     */
    @Override
    protected abstract V compute();
}
