package dev.spindle.runtime;

import dev.spindle.forkjoin.RecursiveTask;

/** Test fib with a small threshold so it forks a lot. */
final class Fib extends RecursiveTask<Long> {
    final int n;
    final int threshold;

    Fib(int n, int threshold) {
        this.n = n;
        this.threshold = threshold;
    }

    static long seq(int n) {
        return n < 2 ? n : seq(n - 1) + seq(n - 2);
    }

    @Override
    protected Long compute() {
        if (n <= threshold) {
            return seq(n);
        }
        Fib f1 = new Fib(n - 1, threshold);
        f1.fork();
        long b = new Fib(n - 2, threshold).compute();
        return f1.join() + b;
    }
}
