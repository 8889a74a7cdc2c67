package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Seed 003's Stress: {@code loops} distinct parallel loops run in sequence, each a million square
 * roots. Run with 40, 64, 128 and 256 loops: the time per loop must stay flat (no per-loop class
 * or set-up cost that grows with the number of distinct loops).
 */
final class Stress extends LoopProgram<Stress.Input, double[]> {
    private final int loops;

    record Input(double[] a) {
    }

    Stress(int loops) {
        if (loops > StressBodies.COUNT) {
            throw new IllegalArgumentException("at most " + StressBodies.COUNT + " loops, got " + loops);
        }
        this.loops = loops;
    }

    @Override
    public String name() {
        return "Stress-" + loops;
    }

    @Override
    public Input prepare(Size size) {
        return new Input(new double[size.pick(1 << 16, 1_000_000, 1_000_000)]);
    }

    @Override
    public Input fresh(Input input) {
        return new Input(input.a.clone());
    }

    @Override
    double[] compute(Input in, LoopRunner runner) {
        double[] a = in.a;
        for (int k = 0; k < loops; k++) {
            runner.parallelFor(0, a.length, StressBodies.body(k, a));
        }
        return a;
    }

    /**
     * Parallel loops every row runs before its timed runs: past the ~5,000 loops after which C2
     * compiles the runtime's once-per-loop code (a worker's join, search and steal, the loop's
     * entry), so that rows of 40 and of 256 loops are timed at the same stage of compilation
     * (PERFORMANCE.md, loops suite, "Stress: the JIT counts loops"). 8,000 was not enough for
     * the static schedule's 64-loop row: its timed runs still carried 2.6 ms of compilation each
     * and its helper parked 13.5 times per run (0.90 ms per loop); after 16,000 loops, 1.1 ms,
     * 3.4 parks and 0.85 ms per loop, level with the other rows.
     */
    static final int WARMUP_LOOPS = 16_000;

    @Override
    public int warmupRuns() {
        return (WARMUP_LOOPS + loops - 1) / loops;
    }

    @Override
    int chunk() {
        return 8192;
    }

    @Override
    public String mismatch(double[] expected, double[] actual) {
        return compareExact(expected, actual);
    }

    @Override
    public String describe(Size size) {
        return loops + " distinct parallel loops of " + size.pick(1 << 16, 1_000_000, 1_000_000) + " square roots";
    }
}
