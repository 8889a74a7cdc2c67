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
 * array, (B) A plus a 16-byte handle holding it and the boxed result, (D) A plus a handle that
 * escape analysis can remove ({@link ScalarHandle}), and (C) {@code Spindle.future} on one
 * worker; and the bytes each allocates per future. The ratios to plain recursion bound what
 * T1/Ts any design with a lambda per future can reach. Run:
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

    /** Form D's stack: the bodies, and beside each the number of the future that pushed it. */
    private static long[] numbers = new long[256];
    private static long created;

    /**
     * Form D: a handle that escape analysis can remove. The stack holds the body and a number
     * unique to the future, not the handle; the handle holds the body, its number and (for a
     * handle that does escape) the result. The touch's fast path pops the body if it is on top
     * with the handle's number and runs it; the slow path is given the handle's fields, never the
     * handle. The prototype of the runtime's design since 2026-11-22 (ARCHITECTURE §8, `ExposedFutures`).
     */
    static final class ScalarHandle<T> {
        private static final java.lang.invoke.VarHandle CELL;

        static {
            try {
                CELL = java.lang.invoke.MethodHandles.lookup().findVarHandle(ScalarHandle.class, "cell", Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long number;
        final Supplier<? extends T> body;
        Object cell;

        ScalarHandle(long number, Supplier<? extends T> body) {
            this.number = number;
            this.body = body;
        }

        static <T> ScalarHandle<T> create(Supplier<? extends T> body) {
            Object[] a = stack;
            int t = top;
            long k = created++;
            a[t] = body;
            numbers[t] = k;
            top = t + 1;
            return new ScalarHandle<>(k, body);
        }

        @SuppressWarnings("unchecked")
        T touch() {
            Object c = CELL.getAcquire(this);
            if (c != null) {
                return (T) c;
            }
            int t = top - 1;
            if (stack[t] == body && numbers[t] == number) {
                stack[t] = null;
                top = t;
                T r = body.get();
                CELL.setRelease(this, r);
                return r;
            }
            return (T) notOnTop(number);
        }
    }

    private static Object notOnTop(long number) {
        throw new IllegalStateException("future " + number + " is not on top of the stack");
    }

    static long scalarHandle(int n) {
        if (n < 2) {
            return n;
        }
        ScalarHandle<Long> h = ScalarHandle.create(() -> scalarHandle(n - 1));
        long b = scalarHandle(n - 2);
        return h.touch() + b;
    }

    /** Form F's stack beside {@link #stack}: each entry's int argument. */
    private static int[] arguments = new int[256];
    private static final java.util.function.IntToLongFunction ARGUMENT_FORM = AllocationFloor::argumentForm;

    /**
     * Form F: no lambda. The stack holds a function that captures nothing (one instance for every
     * call) and, beside it, the int argument and the future's number; the handle holding the
     * three is removed by escape analysis, as in D. What a future given as (function, argument)
     * instead of a capturing lambda can cost at best.
     */
    static long argumentForm(int n) {
        if (n < 2) {
            return n;
        }
        java.util.function.IntToLongFunction fn = ARGUMENT_FORM;
        Object[] a = stack;
        int t = top;
        long k = created++;
        a[t] = fn;
        arguments[t] = n - 1;
        numbers[t] = k;
        top = t + 1;
        long b = argumentForm(n - 2);
        t = top - 1;
        if (a[t] != fn || numbers[t] != k) {
            return (long) notOnTop(k);
        }
        a[t] = null;
        top = t;
        return fn.applyAsLong(arguments[t]) + b;
    }

    /** Form G's bound: how many latent entries the stack keeps before futures run at their creation. */
    static int keepLatent = 3;

    /**
     * Form G: D, except that a future created while the stack already holds {@link #keepLatent}
     * latent entries runs at once, at its creation, and its handle holds the result: what a
     * future costs when the runtime keeps only a few of them latent.
     */
    static final class EagerHandle {
        final long number;
        final LongSupplier body;
        long value;
        boolean done;

        EagerHandle(long number, LongSupplier body) {
            this.number = number;
            this.body = body;
        }

        static EagerHandle create(LongSupplier body) {
            int t = top;
            long k = created++;
            boolean now = t >= keepLatent;
            long v = 0;
            if (now) {
                v = body.getAsLong();
            } else {
                stack[t] = body;
                numbers[t] = k;
                top = t + 1;
            }
            EagerHandle h = new EagerHandle(k, body);      // one allocation site: C2 removes it
            h.value = v;
            h.done = now;
            return h;
        }

        long touch() {
            if (done) {
                return value;
            }
            int t = top - 1;
            if (stack[t] == body && numbers[t] == number) {
                stack[t] = null;
                top = t;
                return body.getAsLong();
            }
            return (long) notOnTop(number);
        }
    }

    static long runAtCreation(int n) {
        if (n < 2) {
            return n;
        }
        EagerHandle h = EagerHandle.create(() -> runAtCreation(n - 1));
        long b = runAtCreation(n - 2);
        return h.touch() + b;
    }

    static long spindleLong(int n) {
        if (n < 2) {
            return n;
        }
        dev.spindle.future.LongFuture f = Spindle.futureLong(() -> spindleLong(n - 1));
        long b = spindleLong(n - 2);
        return f.touchLong() + b;
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
        long futures = fibCalls(n);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        double[][] t = new double[8][9];
        double[] bytes = new double[8];
        try (SpindlePool pool = new SpindlePool(1)) {
            java.util.List<java.util.function.LongSupplier> forms = java.util.List.of(() -> seq(n), () -> lambdaOnly(n),
                    () -> lambdaAndHandle(n), () -> scalarHandle(n), () -> pool.invoke(new Task<Long>() {
                        @Override
                        protected Long compute() {
                            return spindle(n);
                        }
                    }), () -> argumentForm(n), () -> pool.invoke(new Task<Long>() {
                        @Override
                        protected Long compute() {
                            return spindleLong(n);
                        }
                    }), () -> runAtCreation(n));
            for (int r = 0; r < 12; r++) {
                long expected = -1;
                for (int f = 0; f < forms.size(); f++) {
                    long a0 = mx.getTotalThreadAllocatedBytes();
                    long t0 = System.nanoTime();
                    long v = forms.get(f).getAsLong();
                    long t1 = System.nanoTime();
                    long a1 = mx.getTotalThreadAllocatedBytes();
                    if (f == 0) {
                        expected = v;
                    } else if (v != expected) {
                        throw new AssertionError("form " + f + " computed " + v + ", plain recursion " + expected);
                    }
                    if (r >= 3) {
                        t[f][r - 3] = (t1 - t0) / 1e6;
                        bytes[f] += (a1 - a0) / 9.0 / futures;
                    }
                }
            }
        }
        String[] names = {"plain recursion", "A: lambda + array push/pop", "B: A + 16-byte handle + boxed result",
                "D: A + a handle escape analysis removes", "C: Spindle.future at 1 worker",
                "F: function + int argument, no lambda", "C': Spindle.futureLong at 1 worker",
                "G: D, run at creation beyond 3 latent"};
        double base = median(t[0]);
        System.out.printf(Locale.ROOT, "fib(%d), %s, median of 9; bytes per future over every thread%n", n, Runtime.version());
        for (int i = 0; i < names.length; i++) {
            double m = median(t[i]);
            System.out.printf(Locale.ROOT, "  %-42s %8.1f ms  %5.2f x  %6.2f B/future%n", names[i], m, m / base, bytes[i]);
        }
    }

    /** Calls of fib that make a future: those with n ≥ 2. */
    private static long fibCalls(int n) {
        long[] c = new long[Math.max(2, n + 1)];
        for (int i = 2; i <= n; i++) {
            c[i] = 1 + c[i - 1] + c[i - 2];
        }
        return c[n];
    }

    private static double median(double[] a) {
        double[] b = a.clone();
        java.util.Arrays.sort(b);
        return b[b.length / 2];
    }
}
