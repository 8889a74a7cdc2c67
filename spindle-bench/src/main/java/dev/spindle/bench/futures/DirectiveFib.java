package dev.spindle.bench.futures;

import dev.spindle.Future;

/** Fib with a potential future at every call. */
public final class DirectiveFib implements DirectiveCode<Integer, Long> {
    @Override
    public Long run(Integer n) {
        return fib(n);
    }

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        @Future long a = fib(n - 1);
        long b = fib(n - 2);
        return a + b;
    }

    @Override
    public long potentialFutures(Integer n) {
        long a = 0;
        long b = 1;
        for (int i = 0; i < n + 1; i++) {          // calls with n >= 2 of fib(n): fib(n + 1) - 1
            long t = a + b;
            a = b;
            b = t;
        }
        return a - 1;
    }
}
