package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.LongFuture;

import java.util.concurrent.Future;

/** Fib with a future at every call (DBLFutures Table 1): the pure overhead of a future. */
public final class FutureFib extends FutureProgram<Integer, Long> {

    @Override
    public String name() {
        return "Fib";
    }

    @Override
    public Integer prepare(Size size) {
        return size.pick(27, 38, 40);
    }

    @Override
    public String describe(Size size) {
        return "fib(" + prepare(size) + "), a future at every call";
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{10, 13, 16, 19, 22, 25, 28};
    }

    @Override
    protected int tunedCutoff() {
        return 22;
    }

    @Override
    public String mismatch(Long expected, Long actual) {
        return exact(expected, actual);
    }

    @Override
    protected Long seq(Integer n) {
        return seqFib(n);
    }

    static long seqFib(int n) {
        return n < 2 ? n : seqFib(n - 1) + seqFib(n - 2);
    }

    @Override
    protected Long spindle(Integer n) {
        return fib(n);
    }

    static long fib(int n) {
        if (n < 2) {
            return n;
        }
        LongFuture a = Spindle.futureLong(FutureFib::fib, n - 1);
        long b = fib(n - 2);
        return a.touchLong() + b;
    }

    @Override
    protected Long spawned(Integer n, Spawner sp, int cutoff) {
        return fib(n, sp, cutoff);
    }

    static long fib(int n, Spawner sp, int cutoff) {
        if (n < 2) {
            return n;
        }
        if (n < cutoff) {
            return seqFib(n);
        }
        Future<Long> a = sp.spawn(() -> fib(n - 1, sp, cutoff));
        long b = fib(n - 2, sp, cutoff);
        return sp.join(a) + b;
    }
}
