package dev.spindle.loop;

import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.IntFunction;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * A parallel reduction: a {@link ParallelLoop} whose chunks are fixed <em>leaves</em>. Each leaf
 * folds its iterations in order from the identity; the leaves' partial results are then combined
 * by a fixed balanced tree over the leaf order, left operand first.
 *
 * <h2>Why the result is reproducible</h2>
 * Leaf boundaries depend only on the range, the schedule and the team size, never on which
 * worker ran what: static blocks are the team's blocks; static chunks and dynamic chunks are
 * multiples of the chunk; guided chunks depend only on how much remained, and chunks are claimed
 * in order; auto's grains are multiples of the grain and splits fall on grain boundaries. So a
 * {@code double} sum gives the same bits on every run with the same input, schedule and worker
 * count, and a non-commutative operation combines in iteration order. It can differ from the
 * sequential left-to-right sum in the last bits, because floating-point addition is not
 * associative: the sum is {@code (leaf0 + leaf1) + (leaf2 + leaf3)…} rather than one running sum.
 *
 * <p>To keep the partials array small (allocated once per reduction, never per chunk), a
 * reduction uses chunks of at least {@code n / (64 × team)} iterations whatever the schedule asks.
 */
abstract class Reduction extends ParallelLoop {
    /** Guided only: leaf boundaries, precomputed (the sequence is deterministic). */
    private final long[] bounds;
    final int leaves;
    private final int first;

    Reduction(int from, int to, Schedule s, int team) {
        this(from, (long) to - from, s, team, leafChunk((long) to - from, s, team));
    }

    private Reduction(int from, long n, Schedule s, int team, long chunk) {
        super(n, s, team, chunk);
        this.first = from;
        if (s.kind() == Schedule.Kind.GUIDED) {
            int count = 0;
            long[] b = new long[(int) Math.min(n, 2L * (n / chunk + 2))];
            for (long lo = 0; lo < n; ) {
                long size = Math.max(chunk, (n - lo) / (2L * team));
                long hi = n - lo <= size ? n : lo + size;
                b[count++] = lo;
                lo = hi;
            }
            bounds = java.util.Arrays.copyOf(b, count);
            leaves = count;
        } else {
            bounds = null;
            leaves = (int) (s.kind() == Schedule.Kind.STATIC ? Math.min(n, team) : (n - 1) / chunk + 1);
        }
    }

    private static long leafChunk(long n, Schedule s, int team) {
        long min = Math.max(1L, (n + 64L * team - 1) / (64L * team));
        return switch (s.kind()) {
            case STATIC -> 0L;
            case AUTO -> ParallelLoop.autoGrain(n, team);
            default -> Math.max(s.chunk(), min);
        };
    }

    @Override
    boolean fixedLeaves() {
        return true;                                 // partials are per leaf: see the class comment
    }

    /** The leaf a chunk starting at offset {@code lo} is. */
    private int leafOf(long lo) {
        if (bounds != null) {
            int i = java.util.Arrays.binarySearch(bounds, lo);
            if (i < 0) {
                throw new IllegalStateException("chunk at offset " + lo + " is not a leaf");
            }
            return i;
        }
        if (schedule.kind() == Schedule.Kind.STATIC) {
            long q = n / team, r = n % team;
            long big = (q + 1) * r;                  // the first r blocks have q + 1 iterations
            return (int) (lo < big ? lo / (q + 1) : r + (lo - big) / q);
        }
        return (int) (lo / chunk);
    }

    @Override
    final void runChunk(long lo, long hi) {
        reduceLeaf(leafOf(lo), first + lo, first + hi);
    }

    /** Folds indices {@code [from, to)} into partial {@code leaf}. */
    abstract void reduceLeaf(int leaf, long from, long to);

    // ------------------------------------------------------------------ the kinds

    static final class OfDouble extends Reduction {
        private final double identity;
        private final IntToDoubleFunction f;
        private final DoubleBinaryOperator op;
        private final double[] partial;

        OfDouble(int from, int to, Schedule s, int team, double identity, IntToDoubleFunction f, DoubleBinaryOperator op) {
            super(from, to, s, team);
            this.identity = identity;
            this.f = f;
            this.op = op;
            this.partial = new double[leaves];
        }

        @Override
        void reduceLeaf(int leaf, long from, long to) {
            double acc = identity;
            for (int i = (int) from, end = (int) to; i < end; i++) {
                acc = op.applyAsDouble(acc, f.applyAsDouble(i));
            }
            partial[leaf] = acc;
        }

        double combine(int lo, int hi) {
            if (hi - lo == 1) {
                return partial[lo];
            }
            int mid = (lo + hi) >>> 1;
            return op.applyAsDouble(combine(lo, mid), combine(mid, hi));
        }

        double result() {
            return n == 0 ? identity : combine(0, leaves);
        }
    }

    static final class OfLong extends Reduction {
        private final long identity;
        private final IntToLongFunction f;
        private final LongBinaryOperator op;
        private final long[] partial;

        OfLong(int from, int to, Schedule s, int team, long identity, IntToLongFunction f, LongBinaryOperator op) {
            super(from, to, s, team);
            this.identity = identity;
            this.f = f;
            this.op = op;
            this.partial = new long[leaves];
        }

        @Override
        void reduceLeaf(int leaf, long from, long to) {
            long acc = identity;
            for (int i = (int) from, end = (int) to; i < end; i++) {
                acc = op.applyAsLong(acc, f.applyAsLong(i));
            }
            partial[leaf] = acc;
        }

        long combine(int lo, int hi) {
            if (hi - lo == 1) {
                return partial[lo];
            }
            int mid = (lo + hi) >>> 1;
            return op.applyAsLong(combine(lo, mid), combine(mid, hi));
        }

        long result() {
            return n == 0 ? identity : combine(0, leaves);
        }
    }

    static final class OfInt extends Reduction {
        private final int identity;
        private final IntUnaryOperator f;
        private final IntBinaryOperator op;
        private final int[] partial;

        OfInt(int from, int to, Schedule s, int team, int identity, IntUnaryOperator f, IntBinaryOperator op) {
            super(from, to, s, team);
            this.identity = identity;
            this.f = f;
            this.op = op;
            this.partial = new int[leaves];
        }

        @Override
        void reduceLeaf(int leaf, long from, long to) {
            int acc = identity;
            for (int i = (int) from, end = (int) to; i < end; i++) {
                acc = op.applyAsInt(acc, f.applyAsInt(i));
            }
            partial[leaf] = acc;
        }

        int combine(int lo, int hi) {
            if (hi - lo == 1) {
                return partial[lo];
            }
            int mid = (lo + hi) >>> 1;
            return op.applyAsInt(combine(lo, mid), combine(mid, hi));
        }

        int result() {
            return n == 0 ? identity : combine(0, leaves);
        }
    }

    static final class OfObject<T> extends Reduction {
        private final T identity;
        private final IntFunction<? extends T> f;
        private final BinaryOperator<T> op;
        private final Object[] partial;

        OfObject(int from, int to, Schedule s, int team, T identity, IntFunction<? extends T> f, BinaryOperator<T> op) {
            super(from, to, s, team);
            this.identity = identity;
            this.f = f;
            this.op = op;
            this.partial = new Object[leaves];
        }

        @Override
        void reduceLeaf(int leaf, long from, long to) {
            T acc = identity;
            for (int i = (int) from, end = (int) to; i < end; i++) {
                acc = op.apply(acc, f.apply(i));
            }
            partial[leaf] = acc;
        }

        @SuppressWarnings("unchecked")
        T combine(int lo, int hi) {
            if (hi - lo == 1) {
                return (T) partial[lo];
            }
            int mid = (lo + hi) >>> 1;
            return op.apply(combine(lo, mid), combine(mid, hi));
        }

        T result() {
            return n == 0 ? identity : combine(0, leaves);
        }
    }
}
