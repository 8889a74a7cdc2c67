package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Suite;

import java.util.List;

/** Suite {@code fj}: the FJTask paper's programs (seed 001, §4). */
public final class FjSuite {
    private FjSuite() {
    }

    /** @return the suite */
    public static Suite create() {
        return new Suite("fj", "FJTask paper §4: Fib, Integrate, Sort, MM, LU, Jacobi",
                List.of(new Fib(), new Integrate(), new Sort(), new MatrixMultiply(), new LuDecomposition(), new Jacobi()));
    }
}
