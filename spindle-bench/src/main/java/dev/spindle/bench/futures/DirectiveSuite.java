package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Figure;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Target;

import java.util.ArrayList;
import java.util.List;

/**
 * Suite {@code directive}: the futures suite's programs written as their serial code plus
 * {@code @Future} on the recursive results, woven at build time by spindle-maven-plugin. Variants:
 * {@code seq} (the same class unwoven), {@code seq-base-case} (unwoven, with the weaver's base-case
 * rewrite alone, where it applies: no target's baseline), {@code spindle-directive},
 * {@code spindle-object} (the {@code Spindle.future} version) and {@code fjp-tuned}.
 */
public final class DirectiveSuite {
    private DirectiveSuite() {
    }

    /** @return the suite */
    public static Suite create() {
        return new Suite("directive", "@Future directive: Fib, FFT, Raytracer, AdapInt, Quicksort, Knapsack, TreeSum",
                List.of(new DirectiveProgram<>(new FutureFib(), new DirectiveFib()),
                        new DirectiveProgram<>(new Fft(), new DirectiveFft()),
                        new DirectiveProgram<>(new Raytracer(), new DirectiveRaytracer()),
                        new DirectiveProgram<>(new AdaptiveIntegration(), new DirectiveAdaptiveIntegration()),
                        new DirectiveProgram<>(new Quicksort(), new DirectiveQuicksort()),
                        new DirectiveProgram<>(new Knapsack(), new DirectiveKnapsack()),
                        new DirectiveProgram<>(new TreeSum("1K", new int[]{1 << 10, 1 << 10, 1 << 10}, new int[]{1024, 8192, 8192}, 1),
                                new DirectiveTreeSum()),
                        new DirectiveProgram<>(new TreeSum("1M", new int[]{1 << 16, 1 << 20, 1 << 20}, new int[]{4, 4, 4}, 1),
                                new DirectiveTreeSum())),
                targets());
    }

    /** The issue that sets this suite's targets: the {@code @Future} directive. */
    static final int ISSUE = 4;

    /**
     * Issue #4's targets: on Fib and TreeSum (a potential future at every call or node) T1/Ts ≤ 1.5,
     * Ts/T2 ≥ 1.7 and under one byte per potential future at one worker; on the five coarse
     * programs T1/Ts ≤ 1.03 and, at two workers, within 5% of fjp-tuned.
     */
    private static List<Target> targets() {
        List<Target> t = new ArrayList<>();
        for (String b : List.of("Fib", "TreeSum-1K", "TreeSum-1M")) {
            t.add(Target.t1OverTs(ISSUE, b, "spindle-directive", 1.5));
            t.add(Target.speedup(ISSUE, b, "spindle-directive", 2, 1.7));
            t.add(Target.below(ISSUE, b + ": spindle-directive bytes per potential future at P=1",
                    Figure.bytesPerFuture(b, "spindle-directive", 1), 1));
        }
        for (String b : FuturesSuite.COARSE) {
            t.add(Target.t1OverTs(ISSUE, b, "spindle-directive", 1.03));
        }
        for (String b : FuturesSuite.COARSE) {
            t.add(Target.againstBaseline(ISSUE, b, "spindle-directive", "fjp-tuned", 2, 1.05));
        }
        return t;
    }
}
