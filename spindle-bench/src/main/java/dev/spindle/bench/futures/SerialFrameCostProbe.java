package dev.spindle.bench.futures;

import dev.spindle.future.LongFuture;
import dev.spindle.future.SerialFutures;
import dev.spindle.runtime.Worker;

import java.util.List;

/**
 * What a woven serial method's two per-frame operations cost, and whether where their fields live
 * changes it: TreeSum's walk over 2<sup>24</sup> − 1 nodes, one shape per JVM (or several,
 * alternated run by run), on a pool of one worker. Every shape but {@code seq} has the serial method's handle (the body's call in a
 * try/catch, {@link SerialFutures#handleLong}, {@link SerialFutures#touchLongInPlace}); on top of
 * it {@code count} adds {@link SerialFutures#countMadeInPlace()}, {@code prologue} adds
 * {@link SerialFutures#mayKeepLatent()}, and {@code serial} both, as the weaver writes them
 * ({@code woven} is {@link TreeSum#spindle} itself). The other three keep both operations but
 * move their fields: {@code static} reads and counts on one static object (no current-thread
 * lookup), {@code param} passes the worker down as a parameter, and {@code merged} makes the two
 * one field pair (a tick counted at every frame and compared with a limit that a request would
 * lower). The probe's own fields stand in for the worker's in {@code static} and {@code merged};
 * the answers are checked against the sequential sum. Each shape is spelled out in full, with no
 * helper method, as in {@link KnapsackShapeProbe}: C2 compiles each as a recursion of its own.
 * Prints each shape's median of its last 20 of 30 runs.
 * Usage: {@code java -Xms3g -Xmx3g -XX:+AlwaysPreTouch -cp spindle-bench/target/spindle-bench.jar
 * dev.spindle.bench.futures.SerialFrameCostProbe SHAPE[,SHAPE…]}. See docs/PERFORMANCE.md,
 * futures suite, "Thirty-third session".
 */
public final class SerialFrameCostProbe {
    private static final int RUNS = 30;
    private static final int TIMED = 20;
    private static final List<String> SHAPES = List.of("seq", "handle", "count", "prologue", "serial",
            "static", "param", "merged", "woven");
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
        List<String> shapes = ShapeProbe.shapes(args, SHAPES);
        TreeSum.Node root = TreeSum.build(0, (1 << 24) - 1);
        ShapeProbe.time(shapes, shape -> () -> sum(shape, root), TreeSum.seq(root), RUNS, TIMED);
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
        ShapeProbe.MADE_IN_PLACE.set(w, (long) ShapeProbe.MADE_IN_PLACE.get(w) + 1L);
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
