package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Figure;
import dev.spindle.bench.suite.RunFigures;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Target;

import java.util.ArrayList;
import java.util.List;

/** Suite {@code futures}: DBLFutures Table 1 (Satin's programs) and the heartbeat papers' tree sum. */
public final class FuturesSuite {
    private FuturesSuite() {
    }

    /** The issue that sets this suite's targets: lazy futures. */
    static final int ISSUE = 3;

    /** The programs whose futures are coarse enough for a tuned threshold to exist. */
    static final List<String> COARSE = List.of("FFT", "Raytracer", "AdapInt", "Quicksort", "Knapsack");

    /** @return the suite */
    public static Suite create() {
        return new Suite("futures", "DBLFutures Table 1 + heartbeat tree sum: Fib, FFT, Raytracer, AdapInt, Quicksort, Knapsack, TreeSum",
                List.of(new FutureFib(), new Fft(), new Raytracer(), new AdaptiveIntegration(), new Quicksort(), new Knapsack(),
                        new TreeSum("1K", new int[]{1 << 10, 1 << 10, 1 << 10}, new int[]{1024, 8192, 8192}, 1),
                        new TreeSum("1M", new int[]{1 << 16, 1 << 20, 1 << 20}, new int[]{4, 4, 4}, 1),
                        new TreeSum("16M", new int[]{1 << 18, 1 << 24, 1 << 24}, new int[]{1, 1, 1}, 3)),
                targets());
    }

    /** Issue #3's targets. */
    private static List<Target> targets() {
        List<Target> t = new ArrayList<>();
        t.add(Target.t1OverTs(ISSUE, "Fib", "spindle", 2.0));
        t.add(Target.speedup(ISSUE, "Fib", "spindle", 2, 1.6));
        t.add(Target.atLeast(ISSUE, "Fib: fjp-nocutoff T2 / spindle T2", Figure.ratio("Fib", "fjp-nocutoff", 2, "spindle", 2), 5));
        t.add(Target.atMost(ISSUE, "TreeSum-1K: spindle T2 / Ts",
                Figure.ratio("TreeSum-1K", "spindle", 2, "seq", RunFigures.ANY_WORKERS), 1.5));
        t.add(Target.speedup(ISSUE, "TreeSum-16M", "spindle", 2, 1.7));
        for (String b : COARSE) {
            t.add(Target.t1OverTs(ISSUE, b, "spindle", 1.05));
        }
        for (String b : COARSE) {
            t.add(Target.againstBaseline(ISSUE, b, "spindle", "fjp-tuned", 2, 1.10));
        }
        t.add(Target.atMost(ISSUE, "Fib: spindle bytes per future at P=1", Figure.bytesPerFuture("Fib", "spindle", 1), 32));
        return t;
    }
}
