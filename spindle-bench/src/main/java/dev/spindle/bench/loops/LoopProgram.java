package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;
import dev.spindle.loop.Schedule;

import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A program of the {@code loops} suite, written once against {@link LoopRunner}; its variants are
 * seq, jth, wd, streams and Spindle's four schedules.
 *
 * @param <I> input type
 * @param <R> result type
 */
abstract class LoopProgram<I, R> implements Benchmark<I, R> {

    /** The computation, with every parallel loop going through {@code loops}. */
    abstract R compute(I input, LoopRunner loops);

    /** The hand-chosen chunk for the dynamic and guided schedules (guided: its minimum). */
    abstract int chunk(I input);

    @Override
    public List<Variant<I, R>> variants() {
        return List.of(
                variant("seq", false, w -> new LoopRunner.Sequential()),
                variant("jth", true, ThreadPerLoop::new),
                variant("wd", true, WorkDescriptorTeam::new),
                variant("streams", true, StreamLoops::new),
                variant("spindle-static", true, w -> new SpindleLoops(w, Schedule.staticBlocks())),
                variantWithChunk("spindle-dynamic", Schedule::dynamic),
                variantWithChunk("spindle-guided", Schedule::guided),
                variant("spindle-auto", true, w -> new SpindleLoops(w, Schedule.auto())));
    }

    private Variant<I, R> variant(String name, boolean usesWorkers, IntFunction<LoopRunner> open) {
        return new Variant<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean usesWorkers() {
                return usesWorkers;
            }

            @Override
            public Instance<I, R> open(int workers) {
                LoopRunner runner = open.apply(workers);
                return new Instance<>() {
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
            }
        };
    }

    /**
     * A Spindle schedule whose chunk depends on the input: the runner is made at the first run
     * (every run of an instance gets the same input) and kept, so its counters accumulate.
     */
    private Variant<I, R> variantWithChunk(String name, IntFunction<Schedule> schedule) {
        return new Variant<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean usesWorkers() {
                return true;
            }

            @Override
            public Instance<I, R> open(int workers) {
                dev.spindle.runtime.SpindlePool pool = new dev.spindle.runtime.SpindlePool(workers);
                return new Instance<>() {
                    private SpindleLoops runner;

                    @Override
                    public R run(I input) {
                        if (runner == null) {
                            runner = new SpindleLoops(pool, schedule.apply(chunk(input)));
                        }
                        SpindleLoops r = runner;
                        return r.run(() -> compute(input, r));
                    }

                    @Override
                    public Map<String, Long> counters() {
                        return runner == null ? Map.of() : runner.counters();
                    }

                    @Override
                    public void close() {
                        pool.close();
                    }
                };
            }
        };
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
