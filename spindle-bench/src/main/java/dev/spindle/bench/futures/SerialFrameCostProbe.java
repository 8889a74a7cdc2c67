package dev.spindle.bench.futures;

import dev.spindle.future.LongFuture;
import dev.spindle.future.SerialFutures;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a woven serial method's two per-frame operations cost, and whether where their fields live
 * changes it: TreeSum's walk over 2<sup>24</sup> − 1 nodes, one shape per JVM, on a pool of one
 * worker. Every shape but {@code seq} has the serial method's handle (the body's call in a
 * try/catch, {@link SerialFutures#handleLong}, {@link SerialFutures#touchLongInPlace}); on top of
 * it {@code count} adds {@link SerialFutures#countMadeInPlace()}, {@code prologue} adds
 * {@link SerialFutures#mayKeepLatent()}, and {@code serial} both, as the weaver writes them
 * ({@code woven} is {@link TreeSum#spindle} itself). The other three keep both operations but
 * move their fields: {@code static} reads and counts on one static object (no current-thread
 * lookup), {@code param} passes the worker down as a parameter, and {@code merged} makes the two
 * one field pair (a tick counted at every frame and compared with a limit that a request would
 * lower). The probe's own fields stand in for the worker's in {@code static} and {@code merged};
 * the answers are checked against the sequential sum. Prints the median of the last 20 of 30 runs.
 * Usage: {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar
 * dev.spindle.bench.futures.SerialFrameCostProbe SHAPE}. See docs/PERFORMANCE.md, futures suite,
 * "Thirty-third session".
 */
public final class SerialFrameCostProbe {
    private static final int RUNS = 30;
    private static final int TIMED = 20;
    private static final List<String> SHAPES = List.of("seq", "handle", "count", "prologue", "serial",
            "static", "param", "merged", "woven");
    /** The worker's count of futures made in place, for {@code param}. */
    private static final VarHandle MADE_IN_PLACE;

    static {
        try {
            MADE_IN_PLACE = MethodHandles.privateLookupIn(Worker.class, MethodHandles.lookup())
                    .findVarHandle(Worker.class, "madeInPlace", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The stand-in for a worker's fields in {@code static} and {@code merged}: plain, as the worker's. */
    private static final class Fields {
        boolean room;
        int hint;
        long made;
        long tick;
        long limit = Long.MAX_VALUE;
    }

    private static final Fields FIELDS = new Fields();

    private SerialFrameCostProbe() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || !SHAPES.contains(args[0])) {
            throw new IllegalArgumentException("give one shape of " + SHAPES + ", not " + Arrays.toString(args));
        }
        String shape = args[0];
        TreeSum.Node root = TreeSum.build(0, (1 << 24) - 1);
        long expected = TreeSum.seq(root);
        try (SpindlePool pool = new SpindlePool(1)) {
            double[] ms = new double[RUNS];
            for (int r = 0; r < RUNS; r++) {
                long t0 = System.nanoTime();
                long v = pool.invoke(new Task<Long>() {
                    @Override
                    protected Long compute() {
                        return sum(shape, root);
                    }
                });
                ms[r] = (System.nanoTime() - t0) / 1e6;
                if (v != expected) {
                    throw new AssertionError(shape + " summed " + v + ", expected " + expected);
                }
            }
            Arrays.sort(ms, RUNS - TIMED, RUNS);
            System.out.printf(Locale.ROOT, "%-9s median of the last %d runs %.1f ms%n", shape, TIMED,
                    ms[RUNS - TIMED + TIMED / 2]);
        }
    }

    private static long sum(String shape, TreeSum.Node root) {
        return switch (shape) {
            case "seq" -> TreeSum.seq(root);
            case "handle" -> handle(root);
            case "count" -> count(root);
            case "prologue" -> prologue(root);
            case "serial" -> serial(root);
            case "static" -> statik(root);
            case "param" -> param(root, (Worker) Thread.currentThread());
            case "merged" -> merged(root);
            case "woven" -> TreeSum.spindle(root);
            default -> throw new IllegalStateException("checked in main: " + shape);
        };
    }

    static long handle(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        long v = 0;
        Throwable failure = null;
        try {
            v = handle(n.left);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = handle(n.right);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }

    static long count(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        SerialFutures.countMadeInPlace();
        long v = 0;
        Throwable failure = null;
        try {
            v = count(n.left);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = count(n.right);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }

    static long prologue(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        if (SerialFutures.mayKeepLatent()) {
            return TreeSum.spindle(n);
        }
        long v = 0;
        Throwable failure = null;
        try {
            v = prologue(n.left);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = prologue(n.right);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }

    static long serial(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        if (SerialFutures.mayKeepLatent()) {
            return TreeSum.spindle(n);
        }
        SerialFutures.countMadeInPlace();
        long v = 0;
        Throwable failure = null;
        try {
            v = serial(n.left);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = serial(n.right);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }

    static long statik(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        Fields f = FIELDS;
        if (f.room || f.hint != 0) {
            return TreeSum.spindle(n);
        }
        f.made++;
        long v = 0;
        Throwable failure = null;
        try {
            v = statik(n.left);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = statik(n.right);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }

    static long param(TreeSum.Node n, Worker w) {
        if (n == null) {
            return 0;
        }
        if (w.mayKeepLatent()) {
            return TreeSum.spindle(n);
        }
        MADE_IN_PLACE.set(w, (long) MADE_IN_PLACE.get(w) + 1L);
        long v = 0;
        Throwable failure = null;
        try {
            v = param(n.left, w);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = param(n.right, w);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }

    static long merged(TreeSum.Node n) {
        if (n == null) {
            return 0;
        }
        Fields f = FIELDS;
        long tick = f.tick;
        f.tick = tick + 1;
        if (tick >= f.limit) {
            return TreeSum.spindle(n);
        }
        long v = 0;
        Throwable failure = null;
        try {
            v = merged(n.left);
        } catch (Throwable t) {
            failure = t;
        }
        LongFuture left = SerialFutures.handleLong(v, failure);
        long right = merged(n.right);
        return SerialFutures.touchLongInPlace(left) + right + n.value;
    }
}
