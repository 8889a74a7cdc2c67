package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.future.LazyFuture;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What a future at every call of fib can cost at best on this JVM, whatever the scheduler:
 * fib with (A) only the caller's capturing lambda allocated and pushed on / popped off a plain
 * array, (B) A plus a 16-byte handle holding it and the boxed result, and (C) {@code Spindle.future}
 * on one worker. The ratios to plain recursion bound what T1/Ts any design with a lambda per
 * future can reach. Run:
 * {@code java -Xms2g -Xmx8g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar dev.spindle.bench.futures.AllocationFloor [n]}
 */
public final class AllocationFloor {
    private AllocationFloor() {
    }

    private static Object[] stack = new Object[256];
    private static int top;

    static long seq(int n) {
        return n < 2 ? n : seq(n - 1) + seq(n - 2);
    }

    static long lambdaOnly(int n) {
        if (n < 2) {
            return n;
        }
        LongSupplier s = () -> lambdaOnly(n - 1);
        Object[] a = stack;
        int t = top;
        a[t] = s;
        top = t + 1;
        long b = lambdaOnly(n - 2);
        t = top - 1;
        if (a[t] != s) {
            throw new AssertionError("stack discipline");
        }
        a[t] = null;
        top = t;
        return s.getAsLong() + b;
    }

    /** A 16-byte handle: one field, the body and then the result. */
    static final class Handle {
        Object cell;

        Handle(Object cell) {
            this.cell = cell;
        }
    }

    @SuppressWarnings("unchecked")
    static long lambdaAndHandle(int n) {
        if (n < 2) {
            return n;
        }
        Handle h = new Handle((Supplier<Long>) () -> lambdaAndHandle(n - 1));
        Object[] a = stack;
        int t = top;
        a[t] = h;
        top = t + 1;
        long b = lambdaAndHandle(n - 2);
        t = top - 1;
        if (a[t] != h) {
            throw new AssertionError("stack discipline");
        }
        a[t] = null;
        top = t;
        Long r = ((Supplier<Long>) h.cell).get();
        h.cell = r;
        return r + b;
    }

    static long spindle(int n) {
        if (n < 2) {
            return n;
        }
        LazyFuture<Long> f = Spindle.future(() -> spindle(n - 1));
        long b = spindle(n - 2);
        return f.touch() + b;
    }

    /**
     * Prints the median of 9 runs of each form, and its ratio to plain recursion.
     *
     * @param args optional n (default 36)
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 36;
        double[][] t = new double[4][9];
        try (SpindlePool pool = new SpindlePool(1)) {
            for (int r = 0; r < 12; r++) {
                long t0 = System.nanoTime();
                long v0 = seq(n);
                long t1 = System.nanoTime();
                long v1 = lambdaOnly(n);
                long t2 = System.nanoTime();
                long v2 = lambdaAndHandle(n);
                long t3 = System.nanoTime();
                long v3 = pool.invoke(new Task<Long>() {
                    @Override
                    protected Long compute() {
                        return spindle(n);
                    }
                });
                long t4 = System.nanoTime();
                if (v0 != v1 || v1 != v2 || v2 != v3) {
                    throw new AssertionError("results differ");
                }
                if (r >= 3) {
                    t[0][r - 3] = (t1 - t0) / 1e6;
                    t[1][r - 3] = (t2 - t1) / 1e6;
                    t[2][r - 3] = (t3 - t2) / 1e6;
                    t[3][r - 3] = (t4 - t3) / 1e6;
                }
            }
        }
        String[] names = {"plain recursion", "A: lambda + array push/pop", "B: A + 16-byte handle + boxed result",
                "C: Spindle.future at 1 worker"};
        double base = median(t[0]);
        System.out.printf(Locale.ROOT, "fib(%d), %s, median of 9%n", n, Runtime.version());
        for (int i = 0; i < 4; i++) {
            double m = median(t[i]);
            System.out.printf(Locale.ROOT, "  %-40s %8.1f ms  %5.2f x%n", names[i], m, m / base);
        }
    }

    private static double median(double[] a) {
        double[] b = a.clone();
        java.util.Arrays.sort(b);
        return b[b.length / 2];
    }
}
