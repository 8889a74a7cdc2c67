package dev.spindle.bench.futures;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What the shape probes ({@link KnapsackShapeProbe}, {@link SerialFrameCostProbe}) share: the
 * check of the one shape a JVM measures, the timing of that shape on a pool of one worker, and
 * the worker's count of futures made in place for shapes that count as woven code does but with
 * the worker at hand.
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
     * The one shape named by {@code args}.
     *
     * @throws IllegalArgumentException naming the shapes, unless {@code args} is one of them
     */
    static String shape(String[] args, List<String> shapes) {
        if (args.length != 1 || !shapes.contains(args[0])) {
            throw new IllegalArgumentException("give one shape of " + shapes + ", not " + Arrays.toString(args));
        }
        return args[0];
    }

    /**
     * Runs {@code shape} {@code runs} times as a task of a pool of one worker, checks each answer
     * against {@code expected}, and prints the median of the last {@code timed} runs.
     */
    static void time(String shape, LongSupplier run, long expected, int runs, int timed) {
        try (SpindlePool pool = new SpindlePool(1)) {
            double[] ms = new double[runs];
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                long v = pool.invoke(new Task<Long>() {
                    @Override
                    protected Long compute() {
                        return run.getAsLong();
                    }
                });
                ms[r] = (System.nanoTime() - t0) / 1e6;
                if (v != expected) {
                    throw new AssertionError(shape + " answered " + v + ", expected " + expected);
                }
            }
            Arrays.sort(ms, runs - timed, runs);
            System.out.printf(Locale.ROOT, "%-17s median of the last %d runs %.1f ms%n", shape, timed,
                    ms[runs - timed + timed / 2]);
        }
    }
}
