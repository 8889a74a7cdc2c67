package dev.spindle.bench.fj;

import dev.spindle.forkjoin.ForkJoin;
import dev.spindle.runtime.SpindlePool;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.function.Function;

/**
 * How a coarse-grained divide-and-conquer program (Sort, MM, LU, Jacobi) runs two or four
 * independent steps: one algorithm, written once against this interface, runs sequentially, on
 * Spindle, on ForkJoinPool, or with a thread per fork. Their leaves are blocks of thousands of
 * operations, so the virtual call and the lambda per fork are noise next to the work — the
 * fine-grained programs (Fib, Integrate) are written idiomatically per framework instead.
 */
abstract class Forker {

    /** Runs both, potentially in parallel; returns when both are done. */
    abstract void both(Runnable a, Runnable b);

    /** Runs all four, potentially in parallel; returns when all are done. */
    void all(Runnable a, Runnable b, Runnable c, Runnable d) {
        both(() -> both(a, b), () -> both(c, d));
    }

    /** Plain sequential execution, the serial elision. */
    static final Forker SEQ = new Forker() {
        @Override
        void both(Runnable a, Runnable b) {
            a.run();
            b.run();
        }
    };

    /** Spindle's binary join. */
    static final Forker SPINDLE = new Forker() {
        @Override
        void both(Runnable a, Runnable b) {
            ForkJoin.join(a, b);
        }
    };

    /** ForkJoinPool's invokeAll over adapted runnables. */
    static final Forker FJP = new Forker() {
        @Override
        void both(Runnable a, Runnable b) {
            ForkJoinTask.invokeAll(ForkJoinTask.adapt(a), ForkJoinTask.adapt(b));
        }

        @Override
        void all(Runnable a, Runnable b, Runnable c, Runnable d) {
            ForkJoinTask.invokeAll(ForkJoinTask.adapt(a), ForkJoinTask.adapt(b),
                    ForkJoinTask.adapt(c), ForkJoinTask.adapt(d));
        }
    };

    /** A new Thread for every fork: the naive baseline. */
    static final Forker THREADS = new Forker() {
        @Override
        void both(Runnable a, Runnable b) {
            ThreadFork.both(a, b);
        }

        @Override
        void all(Runnable a, Runnable b, Runnable c, Runnable d) {
            ThreadFork.both(() -> ThreadFork.both(a, b), () -> ThreadFork.both(c, d));
        }
    };

    /**
     * The four standard variants (seq, spindle, fjp, threads) of an algorithm written once against
     * a Forker.
     *
     * @param algorithm given a Forker, the computation
     * @param <I>       input type
     * @param <R>       result type
     * @return the variants, seq first
     */
    static <I, R> java.util.List<dev.spindle.bench.suite.Variant<I, R>> variants(Function<Forker, Function<I, R>> algorithm) {
        Function<I, R> seq = algorithm.apply(SEQ);
        Function<I, R> spindle = algorithm.apply(SPINDLE);
        Function<I, R> fjp = algorithm.apply(FJP);
        Function<I, R> threads = algorithm.apply(THREADS);
        return java.util.List.of(
                dev.spindle.bench.suite.Variants.seq(seq),
                dev.spindle.bench.suite.Variants.spindle("spindle", (pool, in) -> inSpindle(pool, in, spindle)),
                dev.spindle.bench.suite.Variants.fjp("fjp", (pool, in) -> inFjp(pool, in, fjp)),
                dev.spindle.bench.suite.Variants.threads(threads));
    }

    /** Runs {@code body} inside the Spindle pool. */
    static <I, R> R inSpindle(SpindlePool pool, I input, Function<I, R> body) {
        return pool.invoke(new dev.spindle.forkjoin.RecursiveTask<R>() {
            @Override
            protected R compute() {
                return body.apply(input);
            }
        });
    }

    /** Runs {@code body} inside the ForkJoinPool. */
    static <I, R> R inFjp(ForkJoinPool pool, I input, Function<I, R> body) {
        return pool.invoke(ForkJoinTask.adapt(() -> body.apply(input)));
    }
}
