package dev.spindle.bench.fj;

import dev.spindle.bench.suite.Size;
import dev.spindle.runtime.SpindlePool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The benchmark programs compute the right thing: each is checked against an independent naive
 * computation, sequentially and on Spindle (the runner then checks every variant against seq).
 */
class AlgorithmsTest {
    static SpindlePool pool;

    @BeforeAll
    static void start() {
        pool = new SpindlePool(2);
    }

    @AfterAll
    static void stop() {
        pool.close();
    }

    @Test
    void fibMatchesClosedRecursion() {
        assertEquals(832040L, Fib.seqFib(30));
        assertEquals(832040L, pool.invoke(new Fib.SpindleFib(30)));
    }

    @Test
    void integrateMatchesTheAntiderivative() {
        // F(x) = x^2/2 + 5x^6/6 + 9x^10/10
        java.util.function.DoubleUnaryOperator big = x -> x * x / 2 + 5 * Math.pow(x, 6) / 6 + 9 * Math.pow(x, 10) / 10;
        double exact = big.applyAsDouble(Integrate.HI) - big.applyAsDouble(Integrate.LO);
        double got = Integrate.whole(1e3);
        assertEquals(exact, got, Math.abs(exact) * 1e-6);
        assertEquals(got, pool.invoke(Integrate.SpindleQuad.root(1e3)));
    }

    @Test
    void sortSorts() {
        int[] a = new Sort().prepare(Size.SMALL);
        int[] expected = a.clone();
        Arrays.sort(expected);
        assertArrayEquals(expected, new Sort.Algorithm(Forker.SEQ).sortAll(a.clone()));
        assertArrayEquals(expected, Forker.inSpindle(pool, a.clone(), x -> new Sort.Algorithm(Forker.SPINDLE).sortAll(x)));
    }

    @Test
    void matrixMultiplyMatchesNaiveProduct() {
        int n = 128;
        MatrixMultiply.Problem p = new MatrixMultiply.Problem(n, SquareMatrices.random(n, 1), SquareMatrices.random(n, 2));
        double[] c = new MatrixMultiply.Algorithm(Forker.SEQ, p).run();
        for (int i = 0; i < n; i += 7) {
            for (int j = 0; j < n; j += 5) {
                double s = 0;
                for (int k = 0; k < n; k++) {
                    s += p.a()[i * n + k] * p.b()[k * n + j];
                }
                assertEquals(s, c[i * n + j], 1e-9, "C(" + i + "," + j + ")");
            }
        }
        assertArrayEquals(c, Forker.inSpindle(pool, p, x -> new MatrixMultiply.Algorithm(Forker.SPINDLE, x).run()));
    }

    @Test
    void luReconstructsTheMatrix() {
        int n = 128;
        double[] a = SquareMatrices.diagonallyDominant(n, 3);
        double[] lu = new LuDecomposition.Algorithm(Forker.SEQ, new LuDecomposition.Problem(n, a.clone())).run();
        for (int i = 0; i < n; i += 3) {
            for (int j = 0; j < n; j += 5) {
                double s = 0;
                for (int k = 0; k <= Math.min(i, j); k++) {
                    double l = k == i ? 1.0 : lu[i * n + k];
                    s += l * lu[k * n + j];
                }
                assertEquals(a[i * n + j], s, 1e-9, "(LU)(" + i + "," + j + ")");
            }
        }
        double[] par = Forker.inSpindle(pool, new LuDecomposition.Problem(n, a.clone()),
                x -> new LuDecomposition.Algorithm(Forker.SPINDLE, x).run());
        assertArrayEquals(lu, par);
    }

    @Test
    void jacobiMatchesNaiveRelaxation() {
        Jacobi.Problem p = new Jacobi().prepare(Size.SMALL);
        int w = p.n() + 2;
        double[] a = p.grid().clone(), b = a.clone();
        for (int s = 0; s < p.steps(); s++) {
            for (int i = 1; i <= p.n(); i++) {
                for (int j = 1; j <= p.n(); j++) {
                    b[i * w + j] = 0.25 * (a[(i - 1) * w + j] + a[(i + 1) * w + j] + a[i * w + j - 1] + a[i * w + j + 1]);
                }
            }
            double[] t = a;
            a = b;
            b = t;
        }
        assertArrayEquals(a, new Jacobi.Algorithm(Forker.SEQ, new Jacobi().fresh(p)).run());
        assertArrayEquals(a, Forker.inSpindle(pool, new Jacobi().fresh(p), x -> new Jacobi.Algorithm(Forker.SPINDLE, x).run()));
    }

    @Test
    void threadBaselineRefusesToExhaustThreads() {
        ThreadFork.liveThreadBudget = 64;
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Fib.threadFib(40));
            assertTrue(e.getMessage().contains("more than 64 live threads"), e.getMessage());
            assertEquals(Fib.seqFib(20), Fib.threadFib(20), "the budget is released after a refusal");
        } finally {
            ThreadFork.liveThreadBudget = ThreadFork.MAX_LIVE_THREADS;
        }
    }
}
