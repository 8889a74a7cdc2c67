package dev.spindle.loop;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;

import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * Parallel loops and reductions on the worker team of a {@link SpindlePool}: the pool of the
 * calling worker, or the default pool when called from any other thread (which then blocks until
 * the loop is done). The team is the pool's workers; no thread is created per loop.
 *
 * <p>Semantics, whatever the schedule: every index in {@code [from, to)} runs exactly once;
 * {@code from >= to} runs nothing (OpenMP); when the call returns every iteration has finished
 * and its effects are visible to the caller. The first exception an iteration throws stops new
 * chunks from starting and is rethrown, as itself, when the loop has ended; exceptions of chunks
 * already running are added to it as suppressed. A loop nested in a loop or in a future runs in
 * parallel when workers are idle and costs about a sequential loop when they are not.
 *
 * <pre>{@code
 * double[] a = new double[n];
 * Loops.parallelFor(0, n, i -> a[i] = Math.sqrt(i));                      // auto schedule
 * Loops.parallelFor(0, n, Schedule.dynamic(16), i -> a[i] += work(i));
 * double sum = Loops.sum(0, n, i -> a[i]);                                 // reproducible bits
 * }</pre>
 *
 * <p>The {@code long} forms have their own names ({@code parallelForLong}): with an implicitly
 * typed lambda, {@code int} and {@code long} overloads would be ambiguous.
 */
public final class Loops {
    private Loops() {
    }

    // ------------------------------------------------------------------ int loops

    /**
     * Runs {@code body} for every index in {@code [from, to)}, auto schedule.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param body the iteration
     */
    public static void parallelFor(int from, int to, IntLoopBody body) {
        parallelFor(from, to, Schedule.auto(), body);
    }

    /**
     * Runs {@code body} for every index in {@code [from, to)} with the given schedule.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param body     the iteration
     */
    public static void parallelFor(int from, int to, Schedule schedule, IntLoopBody body) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(body, "body");
        if (from < to) {
            SpindlePool pool = pool();
            run(pool, new BodyLoops.IntEach(from, to, schedule, pool.parallelism(), body));
        }
    }

    /**
     * Runs {@code body} on sub-ranges that together cover {@code [from, to)} once, auto schedule.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param body runs one sub-range sequentially
     */
    public static void parallelForRange(int from, int to, IntRangeBody body) {
        parallelForRange(from, to, Schedule.auto(), body);
    }

    /**
     * Runs {@code body} on sub-ranges (the schedule's chunks) that together cover {@code [from, to)} once.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param body     runs one sub-range sequentially
     */
    public static void parallelForRange(int from, int to, Schedule schedule, IntRangeBody body) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(body, "body");
        if (from < to) {
            SpindlePool pool = pool();
            run(pool, new BodyLoops.IntRange(from, to, schedule, pool.parallelism(), body));
        }
    }

    // ------------------------------------------------------------------ long loops

    /**
     * Runs {@code body} for every index in {@code [from, to)}, auto schedule.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param body the iteration
     * @throws IllegalArgumentException if the range has more than {@code Long.MAX_VALUE} indices
     */
    public static void parallelForLong(long from, long to, LongLoopBody body) {
        parallelForLong(from, to, Schedule.auto(), body);
    }

    /**
     * Runs {@code body} for every index in {@code [from, to)} with the given schedule.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param body     the iteration
     * @throws IllegalArgumentException if the range has more than {@code Long.MAX_VALUE} indices
     */
    public static void parallelForLong(long from, long to, Schedule schedule, LongLoopBody body) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(body, "body");
        if (from < to) {
            SpindlePool pool = pool();
            run(pool, new BodyLoops.LongEach(from, count(from, to), schedule, pool.parallelism(), body));
        }
    }

    /**
     * Runs {@code body} on sub-ranges that together cover {@code [from, to)} once.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param body     runs one sub-range sequentially
     * @throws IllegalArgumentException if the range has more than {@code Long.MAX_VALUE} indices
     */
    public static void parallelForLongRange(long from, long to, Schedule schedule, LongRangeBody body) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(body, "body");
        if (from < to) {
            SpindlePool pool = pool();
            run(pool, new BodyLoops.LongRange(from, count(from, to), schedule, pool.parallelism(), body));
        }
    }

    private static long count(long from, long to) {
        long n = to - from;
        if (n <= 0) {               // overflowed: more than Long.MAX_VALUE iterations
            throw new IllegalArgumentException("range [" + from + ", " + to + ") has more than "
                    + Long.MAX_VALUE + " iterations");
        }
        return n;
    }

    // ------------------------------------------------------------------ reductions

    /**
     * Reduces {@code f(i)} over {@code [from, to)} with an associative {@code op} whose identity
     * is {@code identity}. Reproducible: see {@link #sum(int, int, IntToDoubleFunction)}.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param identity the identity of {@code op}; the result of an empty range
     * @param f        the value of one index
     * @param op       an associative operation
     * @return the reduction
     */
    public static double reduceDouble(int from, int to, Schedule schedule, double identity,
                                      IntToDoubleFunction f, DoubleBinaryOperator op) {
        check(schedule, f, op);
        if (from >= to) {
            return identity;
        }
        SpindlePool pool = pool();
        Reduction.OfDouble r = new Reduction.OfDouble(from, to, schedule, pool.parallelism(), identity, f, op);
        run(pool, r);
        return r.result();
    }

    /**
     * Like {@link #reduceDouble}, for {@code long} values.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param identity the identity of {@code op}
     * @param f        the value of one index
     * @param op       an associative operation
     * @return the reduction
     */
    public static long reduceLong(int from, int to, Schedule schedule, long identity,
                                  IntToLongFunction f, LongBinaryOperator op) {
        check(schedule, f, op);
        if (from >= to) {
            return identity;
        }
        SpindlePool pool = pool();
        Reduction.OfLong r = new Reduction.OfLong(from, to, schedule, pool.parallelism(), identity, f, op);
        run(pool, r);
        return r.result();
    }

    /**
     * Like {@link #reduceDouble}, for {@code int} values.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param identity the identity of {@code op}
     * @param f        the value of one index
     * @param op       an associative operation
     * @return the reduction
     */
    public static int reduceInt(int from, int to, Schedule schedule, int identity,
                                IntUnaryOperator f, IntBinaryOperator op) {
        check(schedule, f, op);
        if (from >= to) {
            return identity;
        }
        SpindlePool pool = pool();
        Reduction.OfInt r = new Reduction.OfInt(from, to, schedule, pool.parallelism(), identity, f, op);
        run(pool, r);
        return r.result();
    }

    /**
     * Reduces {@code f(i)} over {@code [from, to)} with an associative, possibly non-commutative
     * {@code op}: partial results combine in iteration order.
     *
     * @param from     first index
     * @param to       end index (exclusive)
     * @param schedule the schedule
     * @param identity the identity of {@code op}; the result of an empty range
     * @param f        the value of one index
     * @param op       an associative operation
     * @param <T>      the value type
     * @return the reduction
     */
    public static <T> T reduce(int from, int to, Schedule schedule, T identity,
                               IntFunction<? extends T> f, BinaryOperator<T> op) {
        check(schedule, f, op);
        if (from >= to) {
            return identity;
        }
        SpindlePool pool = pool();
        Reduction.OfObject<T> r = new Reduction.OfObject<>(from, to, schedule, pool.parallelism(), identity, f, op);
        run(pool, r);
        return r.result();
    }

    /**
     * The sum of {@code f(i)} over {@code [from, to)}, auto schedule. The same input, schedule and
     * worker count give the same bits on every run: partial sums of fixed leaves combine in a
     * fixed tree. It can differ from a sequential running sum in the last bits (floating-point
     * addition is not associative).
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the sum
     */
    public static double sum(int from, int to, IntToDoubleFunction f) {
        return reduceDouble(from, to, Schedule.auto(), 0.0, f, Double::sum);
    }

    /**
     * The exact sum (wrapping on overflow, like {@code +}) of {@code f(i)} over {@code [from, to)}.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the sum
     */
    public static long sumLong(int from, int to, IntToLongFunction f) {
        return reduceLong(from, to, Schedule.auto(), 0L, f, Long::sum);
    }

    /**
     * The sum (wrapping on overflow) of {@code f(i)} over {@code [from, to)}.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the sum
     */
    public static int sumInt(int from, int to, IntUnaryOperator f) {
        return reduceInt(from, to, Schedule.auto(), 0, f, Integer::sum);
    }

    /**
     * The smallest {@code f(i)} over {@code [from, to)}; {@code +Infinity} for an empty range.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the minimum
     */
    public static double min(int from, int to, IntToDoubleFunction f) {
        return reduceDouble(from, to, Schedule.auto(), Double.POSITIVE_INFINITY, f, Math::min);
    }

    /**
     * The largest {@code f(i)} over {@code [from, to)}; {@code -Infinity} for an empty range.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the maximum
     */
    public static double max(int from, int to, IntToDoubleFunction f) {
        return reduceDouble(from, to, Schedule.auto(), Double.NEGATIVE_INFINITY, f, Math::max);
    }

    /**
     * The smallest {@code f(i)} over {@code [from, to)}; {@code Long.MAX_VALUE} for an empty range.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the minimum
     */
    public static long minLong(int from, int to, IntToLongFunction f) {
        return reduceLong(from, to, Schedule.auto(), Long.MAX_VALUE, f, Math::min);
    }

    /**
     * The largest {@code f(i)} over {@code [from, to)}; {@code Long.MIN_VALUE} for an empty range.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the maximum
     */
    public static long maxLong(int from, int to, IntToLongFunction f) {
        return reduceLong(from, to, Schedule.auto(), Long.MIN_VALUE, f, Math::max);
    }

    /**
     * The smallest {@code f(i)} over {@code [from, to)}; {@code Integer.MAX_VALUE} for an empty range.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the minimum
     */
    public static int minInt(int from, int to, IntUnaryOperator f) {
        return reduceInt(from, to, Schedule.auto(), Integer.MAX_VALUE, f, Math::min);
    }

    /**
     * The largest {@code f(i)} over {@code [from, to)}; {@code Integer.MIN_VALUE} for an empty range.
     *
     * @param from first index
     * @param to   end index (exclusive)
     * @param f    the value of one index
     * @return the maximum
     */
    public static int maxInt(int from, int to, IntUnaryOperator f) {
        return reduceInt(from, to, Schedule.auto(), Integer.MIN_VALUE, f, Math::max);
    }

    private static void check(Schedule schedule, Object f, Object op) {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(f, "f");
        Objects.requireNonNull(op, "op");
    }

    // ------------------------------------------------------------------ regions

    /**
     * A parallel region (OpenMP's {@code parallel}): runs {@code body} once on each member of a
     * team of up to {@code parallelism()} workers; see {@link Team} and, for how the team is formed
     * so that barriers never deadlock, the size rules there.
     *
     * @param body the SPMD body
     */
    public static void parallelRegion(java.util.function.Consumer<Team> body) {
        parallelRegion(pool().parallelism(), body);
    }

    /**
     * A parallel region with up to {@code requested} members.
     *
     * @param requested team size asked for, at least 1
     * @param body      the SPMD body
     * @throws IllegalArgumentException if {@code requested < 1}
     */
    public static void parallelRegion(int requested, java.util.function.Consumer<Team> body) {
        if (requested < 1) {
            throw new IllegalArgumentException("team size must be at least 1, got " + requested);
        }
        Objects.requireNonNull(body, "body");
        SpindlePool pool = pool();
        if (Thread.currentThread() instanceof Worker w && w.pool() == pool) {
            Region.run(w, requested, body);
            return;
        }
        pool.invoke(new Task<Void>() {
            @Override
            protected Void compute() {
                Region.run((Worker) Thread.currentThread(), requested, body);
                return null;
            }
        });
    }

    // ------------------------------------------------------------------ execution

    private static SpindlePool pool() {
        return Thread.currentThread() instanceof Worker w ? w.pool() : SpindlePool.defaultPool();
    }

    /** On a worker of {@code pool}: runs the loop here; from any other thread: on a worker, and waits. */
    private static void run(SpindlePool pool, ParallelLoop loop) {
        if (Thread.currentThread() instanceof Worker w && w.pool() == pool) {
            loop.execute(w);
            return;
        }
        pool.invoke(new Task<Void>() {
            @Override
            protected Void compute() {
                loop.execute((Worker) Thread.currentThread());
                return null;
            }
        });
    }
}
