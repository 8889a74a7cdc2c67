package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Size;


/**
 * MM (FJTask paper §4): C = A·B for n×n doubles by recursive quadrants. The four quadrant products
 * of each half of the inner dimension run in parallel; the two halves run one after the other
 * (they add into the same quadrants). Leaves are {@value #BLOCK}×{@value #BLOCK} blocks.
 */
public final class MatrixMultiply extends GridBenchmark<MatrixMultiply.Problem> {

    static final int BLOCK = 64;

    /**
     * Input matrices.
     *
     * @param n order (a power of two)
     * @param a left factor
     * @param b right factor
     */
    public record Problem(int n, double[] a, double[] b) {
    }

    @Override
    public String name() {
        return "MM";
    }

    @Override
    public Problem prepare(Size size) {
        int n = order(size);
        return new Problem(n, SquareMatrices.random(n, 1), SquareMatrices.random(n, 2));
    }

    @Override
    public String describe(Size size) {
        return blockedGrid(size, BLOCK);
    }

    @Override
    double[] compute(Forker fork, Problem p) {
        return new Algorithm(fork, p).run();
    }

    /** Recursive quadrant multiplication written once against a {@link Forker}. */
    static final class Algorithm {
        private final Forker fork;
        private final int n;
        private final double[] a, b, c;

        Algorithm(Forker fork, Problem p) {
            this.fork = fork;
            this.n = p.n();
            this.a = p.a();
            this.b = p.b();
            this.c = new double[n * n];
        }

        double[] run() {
            multiply(0, 0, 0, 0, 0, 0, n);
            return c;
        }

        /** C[cr.., cc..] += A[ar.., ac..] · B[br.., bc..] for blocks of order s. */
        void multiply(int ar, int ac, int br, int bc, int cr, int cc, int s) {
            if (s <= BLOCK) {
                kernel(ar, ac, br, bc, cr, cc, s);
                return;
            }
            int h = s >>> 1;
            fork.all(() -> multiply(ar, ac, br, bc, cr, cc, h),
                    () -> multiply(ar, ac, br, bc + h, cr, cc + h, h),
                    () -> multiply(ar + h, ac, br, bc, cr + h, cc, h),
                    () -> multiply(ar + h, ac, br, bc + h, cr + h, cc + h, h));
            fork.all(() -> multiply(ar, ac + h, br + h, bc, cr, cc, h),
                    () -> multiply(ar, ac + h, br + h, bc + h, cr, cc + h, h),
                    () -> multiply(ar + h, ac + h, br + h, bc, cr + h, cc, h),
                    () -> multiply(ar + h, ac + h, br + h, bc + h, cr + h, cc + h, h));
        }

        private void kernel(int ar, int ac, int br, int bc, int cr, int cc, int s) {
            double[] a = this.a, b = this.b, c = this.c;
            int n = this.n;
            for (int i = 0; i < s; i++) {
                int ci = (cr + i) * n + cc;
                int ai = (ar + i) * n + ac;
                for (int k = 0; k < s; k++) {
                    double aik = a[ai + k];
                    int bk = (br + k) * n + bc;
                    for (int j = 0; j < s; j++) {
                        c[ci + j] += aik * b[bk + j];
                    }
                }
            }
        }
    }
}
