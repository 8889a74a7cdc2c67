package dev.spindle.bench.futures;

import dev.spindle.Spindle;
import dev.spindle.bench.suite.Size;
import dev.spindle.future.LazyFuture;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.Future;

/**
 * Recursive radix-2 decimation-in-time FFT (Satin's FFT, DBLFutures Table 1): the odd half is a
 * future, the even half runs here, then the butterflies combine them. Out of place; every variant
 * performs the same floating-point operations in the same order, so results are bit-identical.
 */
public final class Fft extends FutureProgram<Fft.Signal, double[]> {

    /** Input samples and the twiddle table for its length. */
    public record Signal(double[] re, double[] im, double[] cos, double[] sin) {
    }

    @Override
    public String name() {
        return "FFT";
    }

    @Override
    public Signal prepare(Size size) {
        int n = 1 << size.pick(14, 20, 22);
        SplittableRandom r = new SplittableRandom(20);
        double[] re = new double[n];
        double[] im = new double[n];
        for (int i = 0; i < n; i++) {
            re[i] = r.nextDouble() - 0.5;
            im[i] = r.nextDouble() - 0.5;
        }
        double[] c = new double[n / 2];
        double[] s = new double[n / 2];
        for (int k = 0; k < n / 2; k++) {
            c[k] = Math.cos(-2 * Math.PI * k / n);
            s[k] = Math.sin(-2 * Math.PI * k / n);
        }
        return new Signal(re, im, c, s);
    }

    @Override
    public String describe(Size size) {
        return "2^" + size.pick(14, 20, 22) + "-point complex FFT";
    }

    @Override
    public int[] tuningCandidates() {
        return new int[]{1 << 6, 1 << 8, 1 << 10, 1 << 12, 1 << 14, 1 << 16};
    }

    @Override
    protected int tunedCutoff() {
        return 1 << 10;
    }

    @Override
    public String mismatch(double[] expected, double[] actual) {
        return Arrays.equals(expected, actual) ? null : "spectra differ";
    }

    /** Output: re and im interleaved in one array. */
    @Override
    protected double[] seq(Signal s) {
        double[] out = new double[2 * s.re.length];
        seq(s, 0, 1, s.re.length, out, 0);
        return out;
    }

    private static void seq(Signal s, int off, int stride, int n, double[] out, int o) {
        if (n == 1) {
            out[2 * o] = s.re[off];
            out[2 * o + 1] = s.im[off];
            return;
        }
        seq(s, off, 2 * stride, n / 2, out, o);
        seq(s, off + stride, 2 * stride, n / 2, out, o + n / 2);
        combine(s, stride, n, out, o);
    }

    /** Butterflies: out[o..o+n/2) holds the even FFT, out[o+n/2..o+n) the odd one. */
    public static void combine(Signal s, int stride, int n, double[] out, int o) {
        int h = n / 2;
        for (int k = 0; k < h; k++) {
            double wr = s.cos[k * stride];
            double wi = s.sin[k * stride];
            int e = 2 * (o + k);
            int d = 2 * (o + k + h);
            double tr = wr * out[d] - wi * out[d + 1];
            double ti = wr * out[d + 1] + wi * out[d];
            double er = out[e];
            double ei = out[e + 1];
            out[e] = er + tr;
            out[e + 1] = ei + ti;
            out[d] = er - tr;
            out[d + 1] = ei - ti;
        }
    }

    @Override
    protected double[] spindle(Signal s) {
        double[] out = new double[2 * s.re.length];
        spindle(s, 0, 1, s.re.length, out, 0);
        return out;
    }

    private static void spindle(Signal s, int off, int stride, int n, double[] out, int o) {
        if (n == 1) {
            out[2 * o] = s.re[off];
            out[2 * o + 1] = s.im[off];
            return;
        }
        LazyFuture<Void> even = Spindle.future(() -> {
            spindle(s, off, 2 * stride, n / 2, out, o);
            return null;
        });
        spindle(s, off + stride, 2 * stride, n / 2, out, o + n / 2);
        even.touch();
        combine(s, stride, n, out, o);
    }

    @Override
    protected double[] spawned(Signal s, Spawner sp, int cutoff) {
        double[] out = new double[2 * s.re.length];
        spawned(s, 0, 1, s.re.length, out, 0, sp, cutoff);
        return out;
    }

    private static void spawned(Signal s, int off, int stride, int n, double[] out, int o, Spawner sp, int cutoff) {
        if (n < cutoff || n == 1) {
            seq(s, off, stride, n, out, o);
            return;
        }
        Future<Object> odd = sp.spawn(() -> {
            spawned(s, off + stride, 2 * stride, n / 2, out, o + n / 2, sp, cutoff);
            return null;
        });
        spawned(s, off, 2 * stride, n / 2, out, o, sp, cutoff);
        sp.join(odd);
        combine(s, stride, n, out, o);
    }
}
