package dev.spindle.bench.futures;

import dev.spindle.Future;

/** Recursive radix-2 FFT; each half is a potential future. */
public final class DirectiveFft implements DirectiveCode<Fft.Signal, double[]> {
    @Override
    public double[] run(Fft.Signal s) {
        double[] out = new double[2 * s.re().length];
        fft(s, 0, 1, s.re().length, out, 0);
        return out;
    }

    /** Returns the number of points transformed. */
    static int fft(Fft.Signal s, int off, int stride, int n, double[] out, int o) {
        if (n == 1) {
            out[2 * o] = s.re()[off];
            out[2 * o + 1] = s.im()[off];
            return 1;
        }
        @Future int even = fft(s, off, 2 * stride, n / 2, out, o);
        int odd = fft(s, off + stride, 2 * stride, n / 2, out, o + n / 2);
        int done = even + odd;
        Fft.combine(s, stride, n, out, o);
        return done;
    }

    @Override
    public long potentialFutures(Fft.Signal s) {
        return s.re().length - 1L;
    }
}
