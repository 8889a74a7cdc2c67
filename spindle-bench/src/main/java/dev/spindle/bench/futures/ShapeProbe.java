package dev.spindle.bench.futures;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What the shape probes ({@link KnapsackShapeProbe}, {@link SerialFrameCostProbe}) share: the
 * check of the shapes a JVM measures, their timing on a pool of one worker (several alternated run
 * by run), and the worker's count of futures made in place for shapes that count as woven code
 * does but with the worker at hand.
 */
final class ShapeProbe {
    /**
     * {@code Worker.madeInPlace}, which {@code SerialFutures.countMadeInPlace} increments: for a
     * shape that passes the worker down instead of looking it up. Owner-only, plain access.
     */
    static final VarHandle MADE_IN_PLACE;

    static {
        try {
            MADE_IN_PLACE = MethodHandles.privateLookupIn(Worker.class, MethodHandles.lookup())
                    .findVarHandle(Worker.class, "madeInPlace", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ShapeProbe() {
    }

    /**
     * The shapes named by {@code args}: one, or several separated by commas, each at most once.
     *
     * @throws IllegalArgumentException naming the shapes, unless {@code args} is one argument whose
     *                                  every name is one of them
     */
    static List<String> shapes(String[] args, List<String> shapes) {
        if (args.length != 1) {
            throw new IllegalArgumentException("give one shape of " + shapes + ", or several separated by commas, not "
                    + Arrays.toString(args));
        }
        List<String> named = List.of(args[0].split(",", -1));
        for (String s : named) {
            if (!shapes.contains(s)) {
                throw new IllegalArgumentException("no shape \"" + s + "\": give one of " + shapes
                        + ", or several separated by commas");
            }
        }
        if (named.stream().distinct().count() != named.size()) {
            throw new IllegalArgumentException("a shape named twice in " + args[0]);
        }
        return named;
    }

    /**
     * Runs each of {@code shapes} {@code runs} times as a task of a pool of one worker, the shapes
     * alternated run by run (the first of a round rotating with the round), so that a slow host
     * minute falls on all of them; checks each answer against {@code expected}, and prints each
     * shape's median of its last {@code timed} runs.
     */
    static void time(List<String> shapes, Function<String, LongSupplier> run, long expected, int runs, int timed) {
        int n = shapes.size();
        double[][] ms = new double[n][runs];
        try (SpindlePool pool = new SpindlePool(1)) {
            for (int r = 0; r < runs; r++) {
                for (int k = 0; k < n; k++) {
                    int which = (r + k) % n;
                    String shape = shapes.get(which);
                    LongSupplier body = run.apply(shape);
                    long t0 = System.nanoTime();
                    long v = pool.invoke(new Task<Long>() {
                        @Override
                        protected Long compute() {
                            return body.getAsLong();
                        }
                    });
                    ms[which][r] = (System.nanoTime() - t0) / 1e6;
                    if (v != expected) {
                        throw new AssertionError(shape + " answered " + v + ", expected " + expected);
                    }
                }
            }
        }
        for (int k = 0; k < n; k++) {
            Arrays.sort(ms[k], runs - timed, runs);
            System.out.printf(Locale.ROOT, "%-19s median of the last %d runs %.1f ms%n", shapes.get(k), timed,
                    ms[k][runs - timed + timed / 2]);
        }
    }
}
