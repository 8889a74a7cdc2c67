package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: a benchmark over the input 7 whose variants record the order they ran in. "seq",
 * "a" and "b" answer 7; "wrong" answers 8; "drifting" answers 7 on its first run, 8 on its second,
 * and so on. "seq" and "drifting" run on the calling thread, the others on workers.
 */
final class RecordedBenchmark implements Benchmark<Integer, Integer> {
    final List<String> order = new ArrayList<>();
    private int driftingRuns;

    @Override
    public String name() {
        return "Recorded";
    }

    @Override
    public Integer prepare(Size size) {
        return 7;
    }

    private Variant<Integer, Integer> v(String name, boolean usesWorkers, int add) {
        return Variant.of(name, usesWorkers, false, workers -> in -> {
            order.add(name);
            return in + add;
        });
    }

    @Override
    public List<Variant<Integer, Integer>> variants() {
        return List.of(v("seq", false, 0), v("a", true, 0), v("b", true, 0), v("wrong", true, 1), Variant.of("drifting", false, false, workers -> in -> {
            order.add("drifting");
            return in + driftingRuns++;
        }));
    }

    @Override
    public String mismatch(Integer expected, Integer actual) {
        return expected.equals(actual) ? null : "expected " + expected + ", got " + actual;
    }

    @Override
    public String describe(Size size) {
        return "test";
    }
}
