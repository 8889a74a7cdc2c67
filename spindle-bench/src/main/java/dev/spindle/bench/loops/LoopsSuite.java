package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Suite;

import java.util.List;

/** Suite {@code loops}: seed 003's programs, Java Grande Section 2 kernels, Jacobi, skewed loops. */
public final class LoopsSuite {
    private LoopsSuite() {
    }

    /** @return the suite */
    public static Suite create() {
        return new Suite("loops", "parallel loops: LUAppl, Diamond, Stress, Series, SOR, SparseMatmult, Crypt, Jacobi, skewed loops",
                List.of(new LuAppl(), new Diamond(), new Stress(40), new Stress(64), new Stress(128), new Stress(256),
                        new Series(), new Sor(), new SparseMatmult(), new Crypt(), new JacobiRegion(),
                        new Skewed(false), new Skewed(true)));
    }
}
