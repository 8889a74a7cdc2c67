package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Suite;

import java.util.List;

/** Suite {@code futures}: DBLFutures Table 1 (Satin's programs) and the heartbeat papers' tree sum. */
public final class FuturesSuite {
    private FuturesSuite() {
    }

    /** @return the suite */
    public static Suite create() {
        return new Suite("futures", "DBLFutures Table 1 + heartbeat tree sum: Fib, FFT, Raytracer, AdapInt, Quicksort, Knapsack, TreeSum",
                List.of(new FutureFib(), new Fft(), new Raytracer(), new AdaptiveIntegration(), new Quicksort(), new Knapsack(),
                        new TreeSum("1K", new int[]{1 << 10, 1 << 10, 1 << 10}, new int[]{1024, 8192, 8192}, 1),
                        new TreeSum("1M", new int[]{1 << 16, 1 << 20, 1 << 20}, new int[]{4, 4, 4}, 1),
                        new TreeSum("16M", new int[]{1 << 18, 1 << 24, 1 << 24}, new int[]{1, 1, 1}, 3)));
    }
}
