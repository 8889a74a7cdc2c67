package dev.spindle.bench.fj;

import java.util.SplittableRandom;

/** Row-major square matrices in flat arrays, shared by MM and LU. */
final class SquareMatrices {
    private SquareMatrices() {
    }

    static double[] random(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] m = new double[n * n];
        for (int i = 0; i < m.length; i++) {
            m[i] = rnd.nextDouble() - 0.5;
        }
        return m;
    }

    /** A random matrix made strictly diagonally dominant, so LU needs no pivoting. */
    static double[] diagonallyDominant(int n, long seed) {
        double[] m = random(n, seed);
        for (int i = 0; i < n; i++) {
            m[i * n + i] += n;
        }
        return m;
    }

    static String firstDifference(double[] expected, double[] actual, int n) {
        if (expected.length != actual.length) {
            return "sizes differ: " + expected.length + " vs " + actual.length;
        }
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToLongBits(expected[i]) != Double.doubleToLongBits(actual[i])) {
                return "element (" + i / n + "," + i % n + ") expected " + expected[i] + ", got " + actual[i];
            }
        }
        return null;
    }
}
