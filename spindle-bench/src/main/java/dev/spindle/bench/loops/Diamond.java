package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Size;

/**
 * Seed 003's Diamond: one parallel loop of a million multiplications (250 000 elements, four
 * multiplications each), run 800 times in sequence (100 at the small size).
 */
final class Diamond extends LoopProgram<Diamond.Input, double[]> {
    record Input(double[] x, int times) {
    }

    @Override
    public String name() {
        return "Diamond";
    }

    @Override
    public Input prepare(Size size) {
        double[] x = new double[250_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = 1.0 + i * 1e-7;
        }
        return new Input(x, size.pick(100, 800, 800));
    }

    @Override
    public Input fresh(Input input) {
        return new Input(input.x.clone(), input.times);
    }

    @Override
    double[] compute(Input in, LoopRunner loops) {
        double[] x = in.x;
        for (int t = 0; t < in.times; t++) {
            double c = (t & 1) == 0 ? 1.0000001 : 0.9999999;
            loops.parallelFor(0, x.length, (lo, hi) -> {
                for (int i = lo; i < hi; i++) {
                    x[i] = x[i] * c * c * c * c;
                }
            });
        }
        return x;
    }

    @Override
    int chunk() {
        return 4096;
    }

    @Override
    public String mismatch(double[] expected, double[] actual) {
        return compareExact(expected, actual);
    }

    @Override
    public String describe(Size size) {
        return size.pick(100, 800, 800) + " runs of one parallel loop of 10^6 multiplications";
    }
}
