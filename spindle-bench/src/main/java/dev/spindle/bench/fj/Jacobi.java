package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Size;

import java.util.SplittableRandom;

/**
 * Jacobi (FJTask paper §4): relaxation of an n×n grid of doubles with a fixed boundary for a given
 * number of steps; each step replaces every interior point by the mean of its four neighbours,
 * reading the previous grid. Every step is a parallel divide-and-conquer over row bands of
 * {@value #LEAF_ROWS} rows, and the join at its end is the barrier between steps.
 */
public final class Jacobi extends GridBenchmark<Jacobi.Problem> {

    static final int LEAF_ROWS = 16;

    /**
     * Input grid.
     *
     * @param n     interior order; the grid has (n+2)² points
     * @param steps relaxation steps
     * @param grid  initial grid, row major
     */
    public record Problem(int n, int steps, double[] grid) {
    }

    @Override
    public String name() {
        return "Jacobi";
    }

    @Override
    public Problem prepare(Size size) {
        int n = order(size);
        int w = n + 2;
        double[] g = new double[w * w];
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 0; i < w; i++) {
            for (int j = 0; j < w; j++) {
                boolean edge = i == 0 || j == 0 || i == w - 1 || j == w - 1;
                g[i * w + j] = edge ? 1.0 : rnd.nextDouble();
            }
        }
        return new Problem(n, steps(size), g);
    }

    @Override
    public Problem fresh(Problem input) {
        return new Problem(input.n(), input.steps(), input.grid().clone());
    }

    /** @return relaxation steps at a size: 20 for the smoke test, 100 as in the paper */
    static int steps(Size size) {
        return size.pick(20, 100, 100);
    }

    @Override
    public String describe(Size size) {
        int n = order(size);
        return n + "x" + n + " doubles, " + steps(size) + " steps, bands of " + LEAF_ROWS + " rows";
    }

    @Override
    double[] compute(Forker fork, Problem p) {
        return new Algorithm(fork, p).run();
    }

    /** Jacobi relaxation written once against a {@link Forker}. */
    static final class Algorithm {
        private final Forker fork;
        private final int n, w, steps;
        private double[] src, dst;

        Algorithm(Forker fork, Problem p) {
            this.fork = fork;
            this.n = p.n();
            this.w = n + 2;
            this.steps = p.steps();
            this.src = p.grid();
            this.dst = p.grid().clone();
        }

        double[] run() {
            for (int s = 0; s < steps; s++) {
                double[] from = src, to = dst;
                rows(from, to, 1, n + 1);
                src = to;
                dst = from;
            }
            return src;
        }

        void rows(double[] from, double[] to, int lo, int hi) {
            if (hi - lo <= LEAF_ROWS) {
                relax(from, to, lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            fork.both(() -> rows(from, to, lo, mid), () -> rows(from, to, mid, hi));
        }

        private void relax(double[] from, double[] to, int lo, int hi) {
            int w = this.w;
            for (int i = lo; i < hi; i++) {
                int row = i * w;
                for (int j = 1; j <= n; j++) {
                    int p = row + j;
                    to[p] = 0.25 * (from[p - w] + from[p + w] + from[p - 1] + from[p + 1]);
                }
            }
        }
    }
}
