package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Suite;

import java.util.List;

/**
 * Suite {@code directive}: the futures suite's programs written as their serial code plus
 * {@code @Future} on the recursive results, woven at build time by spindle-maven-plugin. Variants:
 * {@code seq} (the same class unwoven), {@code spindle-directive}, {@code spindle-object} (the
 * {@code Spindle.future} version) and {@code fjp-tuned}.
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
                                new DirectiveTreeSum())));
    }
}
