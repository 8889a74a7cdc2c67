package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Figure;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Target;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Suite {@code loops}: seed 003's programs, Java Grande Section 2 kernels, Jacobi, skewed loops. */
public final class LoopsSuite {
    private LoopsSuite() {
    }

    /** The issue that sets this suite's targets: parallel loops. */
    static final int ISSUE = 5;

    /** The loop counts of the Stress rows. */
    private static final List<Integer> STRESS_LOOPS = List.of(40, 64, 128, 256);

    /** Spindle's schedules, each a variant of every loop program. */
    private static final List<String> SCHEDULES = List.of("spindle-static", "spindle-dynamic", "spindle-guided", "spindle-auto");

    /** @return the suite */
    public static Suite create() {
        List<dev.spindle.bench.suite.Benchmark<?, ?>> programs = new ArrayList<>(List.of(new LuAppl(), new Diamond()));
        STRESS_LOOPS.forEach(n -> programs.add(new Stress(n)));
        programs.addAll(List.of(new Series(), new Sor(), new SparseMatmult(), new Crypt(), new JacobiRegion(),
                new Skewed(false), new Skewed(true)));
        return new Suite("loops", "parallel loops: LUAppl, Diamond, Stress, Series, SOR, SparseMatmult, Crypt, Jacobi, skewed loops",
                programs, targets());
    }

    /**
     * Issue #5's targets that the runner measures (the empty loop's are JMH's: {@code ./spindle jmh
     * EmptyLoop}): Ts/T2 ≥ 1.8 on five kernels with the best schedule; auto within 10% of the best
     * hand-chosen schedule on the skewed loops; Stress's cost per loop flat within 10% from 40 to
     * 256 loops, for every schedule.
     */
    private static List<Target> targets() {
        List<Target> t = new ArrayList<>();
        for (String b : List.of("LUAppl", "SOR", "Series", "SparseMatmult", "Crypt")) {
            t.add(Target.atLeast(ISSUE, b + ": best Spindle schedule Ts/T2", Figure.bestSpeedup(b, SCHEDULES, 2), 1.8));
        }
        for (String b : List.of("Skewed-linear", "Skewed-random")) {
            t.add(Target.atMost(ISSUE, b + ": spindle-auto T2 / best hand-chosen schedule's T2",
                    Figure.overBest(b, "spindle-auto", SCHEDULES.subList(0, 3), 2), 1.10));
        }
        Map<String, Integer> stress = new LinkedHashMap<>();
        STRESS_LOOPS.forEach(n -> stress.put("Stress-" + n, n));
        for (String v : SCHEDULES) {
            t.add(Target.atMost(ISSUE, "Stress: " + v + " slowest / fastest cost per loop at P=2",
                    Figure.perLoopSpread(stress, v, 2), 1.10));
        }
        return t;
    }
}
