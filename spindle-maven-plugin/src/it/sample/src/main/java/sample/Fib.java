package sample;

import dev.spindle.Future;

public class Fib {
    public static long fib(int n) {
        if (n < 2) {
            return n;
        }
        @Future long a = fib(n - 1);
        long b = fib(n - 2);
        return a + b;
    }
}
