package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;
import dev.spindle.bench.suite.Variants;

import java.util.List;

/**
 * Fib (FJTask paper §2 and §4): naive recursive Fibonacci, sequential below a threshold of 13.
 * Each variant is the idiomatic code for its framework, as in the paper's listing.
 */
public final class Fib implements Benchmark<Integer, Long> {

    /** The paper's granularity threshold. */
    public static final int THRESHOLD = 13;

    @Override
    public String name() {
        return "Fib";
    }

    @Override
    public Integer prepare(Size size) {
        return size.pick(30, 40, 45);
    }

    @Override
    public String describe(Size size) {
        return "fib(" + prepare(size) + "), threshold " + THRESHOLD;
    }

    @Override
    public List<Variant<Integer, Long>> variants() {
        return List.of(
                Variants.seq(Fib::seqFib),
                Variants.spindle("spindle", (pool, n) -> pool.invoke(new SpindleFib(n))),
                Variants.fjp("fjp", (pool, n) -> pool.invoke(new FjpFib(n))),
                Variants.threads(Fib::threadFib));
    }

    @Override
    public String mismatch(Long expected, Long actual) {
        return expected.equals(actual) ? null : "expected " + expected + ", got " + actual;
    }

    /**
     * Plain recursion.
     *
     * @param n argument
     * @return fib(n)
     */
    public static long seqFib(int n) {
        return n <= 1 ? n : seqFib(n - 1) + seqFib(n - 2);
    }

    static final class SpindleFib extends dev.spindle.forkjoin.RecursiveTask<Long> {
        final int n;

        SpindleFib(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n <= THRESHOLD) {
                return seqFib(n);
            }
            SpindleFib f1 = new SpindleFib(n - 1);
            f1.fork();
            long r2 = new SpindleFib(n - 2).compute();
            return f1.join() + r2;
        }
    }

    static final class FjpFib extends java.util.concurrent.RecursiveTask<Long> {
        final int n;

        FjpFib(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n <= THRESHOLD) {
                return seqFib(n);
            }
            FjpFib f1 = new FjpFib(n - 1);
            f1.fork();
            long r2 = new FjpFib(n - 2).compute();
            return f1.join() + r2;
        }
    }

    static long threadFib(int n) {
        if (n <= THRESHOLD) {
            return seqFib(n);
        }
        long[] r = new long[2];
        ThreadFork.both(() -> r[1] = threadFib(n - 2), () -> r[0] = threadFib(n - 1));
        return r[0] + r[1];
    }
}
