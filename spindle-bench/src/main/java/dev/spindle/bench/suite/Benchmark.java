package dev.spindle.bench.suite;

import java.util.List;

/**
 * A program measured by the runner: its input, its sequential answer, and its variants.
 *
 * @param <I> input type
 * @param <R> result type
 */
public interface Benchmark<I, R> {

    /** @return the benchmark's name */
    String name();

    /**
     * Builds the input for a size (not timed).
     *
     * @param size problem size
     * @return the input
     */
    I prepare(Size size);

    /**
     * A copy of the input for one run, for programs that work in place (not timed).
     *
     * @param input the prepared input
     * @return the input to hand to one run
     */
    default I fresh(I input) {
        return input;
    }

    /** @return the variants; the first one named "seq" gives Ts and the reference answer */
    List<Variant<I, R>> variants();

    /**
     * The variant of that name.
     *
     * @param name a variant's name
     * @return the variant
     * @throws IllegalArgumentException naming the benchmark, the name and the variants it has
     */
    default Variant<I, R> variant(String name) {
        return variants().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow(() ->
                new IllegalArgumentException(name() + " has no variant '" + name + "'; it has "
                        + variants().stream().map(Variant::name).toList()));
    }

    /**
     * Checks an answer against the sequential one.
     *
     * @param expected the seq variant's answer
     * @param actual   another variant's answer
     * @return null if they agree, else a description of the mismatch
     */
    String mismatch(R expected, R actual);

    /**
     * The least number of untimed runs this program needs before its timings reach the JIT's
     * steady state, beyond the runner's time-based warm-up; 0 (the default) for none. For a
     * program whose runtime code runs once per operation (a parallel loop) and whose rows
     * differ in operations per run, so that a warm-up of equal time leaves some rows short of
     * the compilation thresholds that others have passed. Ignored when the warm-up is a fixed
     * count ({@code --warmup-time 0}).
     *
     * @return untimed runs, at least 0
     */
    default int warmupRuns() {
        return 0;
    }

    /** @return a short description of the problem at a size, for reports */
    String describe(Size size);
}
