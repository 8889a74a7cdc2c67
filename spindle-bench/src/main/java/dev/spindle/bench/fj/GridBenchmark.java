package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;

import java.util.List;

/**
 * Base of the benchmarks whose answer is a square grid of doubles (MM, LU, Jacobi): their order
 * by size, their four variants from one algorithm, and bit-exact verification.
 *
 * @param <P> problem type
 */
abstract class GridBenchmark<P> implements Benchmark<P, double[]> {

    /** @return the grid order at a size: 256, 1024 (the papers' size) or 2048 */
    static int order(Size size) {
        return size.pick(256, 1024, 2048);
    }

    /** @return "NxN doubles, block B" for a blocked matrix program at a size */
    static String blockedGrid(Size size, int block) {
        int n = order(size);
        return n + "x" + n + " doubles, block " + block;
    }

    /** Runs the algorithm once with the given way of forking. */
    abstract double[] compute(Forker fork, P problem);

    @Override
    public final List<Variant<P, double[]>> variants() {
        return Forker.variants(fork -> p -> compute(fork, p));
    }

    @Override
    public final String mismatch(double[] expected, double[] actual) {
        return SquareMatrices.firstDifference(expected, actual, (int) Math.round(Math.sqrt(expected.length)));
    }
}
