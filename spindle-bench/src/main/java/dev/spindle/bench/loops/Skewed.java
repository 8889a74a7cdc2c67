package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * A loop whose iterations cost very different amounts — linearly growing with the index, or
 * random (exponentially distributed, fixed seed) — where static schedules leave workers idle.
 */
final class Skewed extends LoopProgram<int[], long[]> {
    private final boolean random;

    Skewed(boolean random) {
        this.random = random;
    }

    @Override
    public String name() {
        return random ? "Skewed-random" : "Skewed-linear";
    }

    @Override
    public int[] prepare(Size size) {
        int n = size.pick(1000, 4000, 8000);
        int[] cost = new int[n];
        java.util.SplittableRandom r = new java.util.SplittableRandom(99);
        for (int i = 0; i < n; i++) {
            cost[i] = random ? (int) Math.min(1_000_000, -Math.log(1.0 - r.nextDouble()) * 64 * n / 2) : 64 * i;
        }
        return cost;
    }

    @Override
    long[] compute(int[] cost, LoopRunner loops) {
        long[] out = new long[cost.length];
        loops.parallelFor(0, cost.length, (lo, hi) -> {
            for (int i = lo; i < hi; i++) {
                long x = i;
                for (int k = cost[i]; k > 0; k--) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                out[i] = x;
            }
        });
        return out;
    }

    @Override
    int chunk() {
        return 16;
    }

    @Override
    public String mismatch(long[] expected, long[] actual) {
        int i = java.util.Arrays.mismatch(expected, actual);
        return i < 0 ? null : "element " + i + ": " + actual[i] + " != " + expected[i];
    }

    @Override
    public String describe(Size size) {
        int n = size.pick(1000, 4000, 8000);
        return n + " iterations costing " + (random ? "random (exponential)" : "64 i") + " LCG steps";
    }
}
