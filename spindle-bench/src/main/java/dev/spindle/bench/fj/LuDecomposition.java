package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Size;


/**
 * LU (FJTask paper §4, after Cilk's lu): in-place LU decomposition without pivoting of an n×n
 * diagonally dominant matrix by recursive blocks. lu(M) = lu(M00); in parallel solve M01 with L00
 * and M10 with U00; M11 −= M10·M01 (a recursive Schur update, four quadrants in parallel per
 * phase); lu(M11). Leaves are {@value #BLOCK}×{@value #BLOCK} blocks. The result holds L (unit
 * lower, below the diagonal) and U.
 */
public final class LuDecomposition extends GridBenchmark<LuDecomposition.Problem> {

    static final int BLOCK = 32;

    /**
     * Input matrix.
     *
     * @param n order (a power of two, at least BLOCK)
     * @param m the matrix, row major
     */
    public record Problem(int n, double[] m) {
    }

    @Override
    public String name() {
        return "LU";
    }

    @Override
    public Problem prepare(Size size) {
        int n = order(size);
        return new Problem(n, SquareMatrices.diagonallyDominant(n, 3));
    }

    @Override
    public Problem fresh(Problem input) {
        return new Problem(input.n(), input.m().clone());
    }

    @Override
    public String describe(Size size) {
        return blockedGrid(size, BLOCK);
    }

    @Override
    double[] compute(Forker fork, Problem p) {
        return new Algorithm(fork, p).run();
    }

    /** Recursive block LU written once against a {@link Forker}. Blocks are (row, col) corners. */
    static final class Algorithm {
        private final Forker fork;
        private final int n;
        private final double[] a;

        Algorithm(Forker fork, Problem p) {
            this.fork = fork;
            this.n = p.n();
            this.a = p.m();
        }

        double[] run() {
            lu(0, 0, n);
            return a;
        }

        void lu(int r, int c, int s) {
            if (s <= BLOCK) {
                blockLu(r, c, s);
                return;
            }
            int h = s >>> 1;
            lu(r, c, h);
            fork.both(() -> lowerSolve(r, c + h, r, c, h), () -> upperSolve(r + h, c, r, c, h));
            schur(r + h, c + h, r + h, c, r, c + h, h);
            lu(r + h, c + h, h);
        }

        /** Solves L·X = M in place for M at (mr, mc); L is the unit lower part of the block at (lr, lc). */
        void lowerSolve(int mr, int mc, int lr, int lc, int s) {
            if (s <= BLOCK) {
                blockLowerSolve(mr, mc, lr, lc, s);
                return;
            }
            int h = s >>> 1;
            fork.both(() -> auxLower(mr, mc, lr, lc, h), () -> auxLower(mr, mc + h, lr, lc, h));
        }

        private void auxLower(int mr, int mc, int lr, int lc, int h) {
            lowerSolve(mr, mc, lr, lc, h);
            schur(mr + h, mc, lr + h, lc, mr, mc, h);
            lowerSolve(mr + h, mc, lr + h, lc + h, h);
        }

        /** Solves X·U = M in place for M at (mr, mc); U is the upper part of the block at (ur, uc). */
        void upperSolve(int mr, int mc, int ur, int uc, int s) {
            if (s <= BLOCK) {
                blockUpperSolve(mr, mc, ur, uc, s);
                return;
            }
            int h = s >>> 1;
            fork.both(() -> auxUpper(mr, mc, ur, uc, h), () -> auxUpper(mr + h, mc, ur, uc, h));
        }

        private void auxUpper(int mr, int mc, int ur, int uc, int h) {
            upperSolve(mr, mc, ur, uc, h);
            schur(mr, mc + h, mr, mc, ur, uc + h, h);
            upperSolve(mr, mc + h, ur + h, uc + h, h);
        }

        /** M −= V·W for blocks of order s at (mr, mc), (vr, vc), (wr, wc). */
        void schur(int mr, int mc, int vr, int vc, int wr, int wc, int s) {
            if (s <= BLOCK) {
                blockSchur(mr, mc, vr, vc, wr, wc, s);
                return;
            }
            int h = s >>> 1;
            fork.all(() -> schur(mr, mc, vr, vc, wr, wc, h),
                    () -> schur(mr, mc + h, vr, vc, wr, wc + h, h),
                    () -> schur(mr + h, mc, vr + h, vc, wr, wc, h),
                    () -> schur(mr + h, mc + h, vr + h, vc, wr, wc + h, h));
            fork.all(() -> schur(mr, mc, vr, vc + h, wr + h, wc, h),
                    () -> schur(mr, mc + h, vr, vc + h, wr + h, wc + h, h),
                    () -> schur(mr + h, mc, vr + h, vc + h, wr + h, wc, h),
                    () -> schur(mr + h, mc + h, vr + h, vc + h, wr + h, wc + h, h));
        }

        private void blockLu(int r, int c, int s) {
            double[] a = this.a;
            int n = this.n;
            for (int k = 0; k < s; k++) {
                int rk = (r + k) * n + c;
                double pivot = a[rk + k];
                for (int i = k + 1; i < s; i++) {
                    int ri = (r + i) * n + c;
                    double lik = a[ri + k] / pivot;
                    a[ri + k] = lik;
                    for (int j = k + 1; j < s; j++) {
                        a[ri + j] -= lik * a[rk + j];
                    }
                }
            }
        }

        private void blockLowerSolve(int mr, int mc, int lr, int lc, int s) {
            double[] a = this.a;
            int n = this.n;
            for (int i = 1; i < s; i++) {
                int mi = (mr + i) * n + mc;
                int li = (lr + i) * n + lc;
                for (int k = 0; k < i; k++) {
                    double lik = a[li + k];
                    int mk = (mr + k) * n + mc;
                    for (int j = 0; j < s; j++) {
                        a[mi + j] -= lik * a[mk + j];
                    }
                }
            }
        }

        private void blockUpperSolve(int mr, int mc, int ur, int uc, int s) {
            double[] a = this.a;
            int n = this.n;
            for (int i = 0; i < s; i++) {
                int mi = (mr + i) * n + mc;
                for (int k = 0; k < s; k++) {
                    int uk = (ur + k) * n + uc;
                    double mik = a[mi + k] / a[uk + k];
                    a[mi + k] = mik;
                    for (int j = k + 1; j < s; j++) {
                        a[mi + j] -= mik * a[uk + j];
                    }
                }
            }
        }

        private void blockSchur(int mr, int mc, int vr, int vc, int wr, int wc, int s) {
            double[] a = this.a;
            int n = this.n;
            for (int i = 0; i < s; i++) {
                int mi = (mr + i) * n + mc;
                int vi = (vr + i) * n + vc;
                for (int k = 0; k < s; k++) {
                    double vik = a[vi + k];
                    int wk = (wr + k) * n + wc;
                    for (int j = 0; j < s; j++) {
                        a[mi + j] -= vik * a[wk + j];
                    }
                }
            }
        }
    }
}
