package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Variant;
import dev.spindle.loop.Schedule;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A program of the {@code loops} suite, written once against {@link LoopRunner}; its variants are
 * seq, jth, wd, streams, spin-team (the hand-written ceiling) and Spindle's four schedules.
 *
 * @param <I> input type
 * @param <R> result type
 */
abstract class LoopProgram<I, R> implements Benchmark<I, R> {

    /** The computation, with every parallel loop going through {@code loops}. */
    abstract R compute(I input, LoopRunner loops);

    /** The hand-chosen chunk for the dynamic and guided schedules (guided: its minimum). */
    abstract int chunk();

    @Override
    public List<Variant<I, R>> variants() {
        return List.of(
                variant("seq", false, w -> new LoopRunner.Sequential()),
                variant("jth", true, ThreadPerLoop::new),
                variant("wd", true, WorkDescriptorTeam::new),
                variant("streams", true, StreamLoops::new),
                variant("spin-team", true, SpinTeam::new),
                variant("spindle-static", true, w -> new SpindleLoops(w, Schedule.staticBlocks())),
                variant("spindle-dynamic", true, w -> new SpindleLoops(w, Schedule.dynamic(chunk()))),
                variant("spindle-guided", true, w -> new SpindleLoops(w, Schedule.guided(chunk()))),
                variant("spindle-auto", true, w -> new SpindleLoops(w, Schedule.auto())));
    }

    private Variant<I, R> variant(String name, boolean usesWorkers, IntFunction<LoopRunner> open) {
        return Variant.of(name, usesWorkers, false, workers -> {
            LoopRunner runner = open.apply(workers);
            return new Variant.Instance<>() {
                @Override
                public R run(I input) {
                    return runner.run(() -> compute(input, runner));
                }

                @Override
                public Map<String, Long> counters() {
                    return runner.counters();
                }

                @Override
                public void close() {
                    runner.close();
                }
            };
        });
    }

    /** A copy of a matrix, row by row, for programs that work in place. */
    static double[][] copyRows(double[][] m) {
        double[][] c = new double[m.length][];
        for (int i = 0; i < c.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }

    /** Compares matrices exactly, row by row. */
    static String compareRows(double[][] expected, double[][] actual) {
        for (int i = 0; i < expected.length; i++) {
            String m = compareExact(expected[i], actual[i]);
            if (m != null) {
                return "row " + i + ": " + m;
            }
        }
        return null;
    }

    /** Compares doubles exactly: every variant computes each element in the same order. */
    static String compareExact(double[] expected, double[] actual) {
        if (expected.length != actual.length) {
            return "length " + actual.length + " != " + expected.length;
        }
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToLongBits(expected[i]) != Double.doubleToLongBits(actual[i])) {
                return "element " + i + ": " + actual[i] + " != " + expected[i];
            }
        }
        return null;
    }

}
