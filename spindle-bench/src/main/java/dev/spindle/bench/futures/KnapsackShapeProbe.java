package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Size;
import dev.spindle.future.LazyFuture;
import dev.spindle.future.SerialFutures;
import dev.spindle.runtime.Worker;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What each piece of a woven serial method costs in Knapsack's search ({@link Knapsack}), one shape
 * per JVM, on a pool of one worker: the serial search over a {@code long[]} best ({@code array},
 * the suite's seq), over the parallel variants' {@link AtomicLong} ({@code atomic}), the same with
 * the two paths and three recursive calls that Knapsack's woven code had before its future checked
 * the fit itself ({@code atomic3}), the serial method's prologue alone ({@code prologue}), its count
 * alone ({@code count}), and the whole serial method written by hand in that two-path form
 * ({@code serial}) less its count ({@code serial-nocount}), its prologue ({@code serial-noprologue})
 * or its handle and touch ({@code serial-nohandle}); the count alone again on a static field
 * ({@code count-static}) and on an array passed down as a parameter ({@code count-param}), where
 * {@code count} looks the current thread up; the serial method of the one-path form that the
 * woven code has now, written by hand ({@code one-path}) and with the worker passed down as a
 * parameter instead of looked up at each frame ({@code one-path-param}); the one-path form built up
 * piece by piece — the search with the take call in a try/catch whose handler searches the leave
 * branch and rethrows ({@code one-path-try}), plus the handle and its touch
 * ({@code one-path-handle}), plus the prologue ({@code one-path-nocount}) or the count
 * ({@code one-path-noprologue}) — and the woven
 * {@link Knapsack#spindle} as it is now ({@code woven}). The hand-written shapes call
 * {@link SerialFutures} as the weaver's code does; their prologue's other path runs the woven
 * method. Each shape is spelled out in full, with
 * no helper method: a helper is one more call that C2 may refuse where it compiles a method without
 * call counts. Prints each shape's median of its last 12 of 20 runs. Usage: {@code java -Xms1g
 * -Xmx1g -cp spindle-bench/target/spindle-bench.jar dev.spindle.bench.futures.KnapsackShapeProbe
 * SHAPE[,SHAPE…]}; several shapes are timed in one JVM, alternated run by run, so that a slow host
 * minute falls on all of them. C2's recursive inlining is decided per JVM and per shape, from the
 * profile of the search's first few thousand calls: run several JVMs, or take that lottery out
 * with {@code -XX:CompileCommand=quiet -XX:CompileCommand=inline,dev.spindle.bench.futures.KnapsackShapeProbe::*},
 * under which C2 inlines every shape's recursive calls one level whatever their profile
 * (PERFORMANCE.md, futures suite, "The forty-fifth session"). See also
 * docs/PERFORMANCE.md, futures suite, "Thirty-second session".
 */
public final class KnapsackShapeProbe {
    private static final int RUNS = 20;
    private static final int TIMED = 12;
    private static final List<String> SHAPES = List.of("array", "atomic", "atomic3", "prologue", "count",
            "serial", "serial-nocount", "serial-noprologue", "serial-nohandle", "count-static", "count-param",
            "one-path", "one-path-param", "one-path-try", "one-path-handle", "one-path-nocount",
            "one-path-noprologue", "woven");
    /** The counter of {@code count-static}. */
    private static long staticCount;

    private KnapsackShapeProbe() {
    }

    public static void main(String[] args) {
        List<String> shapes = ShapeProbe.shapes(args, SHAPES);
        Knapsack program = new Knapsack();
        Knapsack.Items it = program.prepare(Size.DEFAULT);
        ShapeProbe.time(shapes, shape -> () -> run(shape, program, it), program.seq(it), RUNS, TIMED);
    }

    private static long run(String shape, Knapsack program, Knapsack.Items it) {
        if (shape.equals("array")) {
            long[] best = {0};
            array(it, 0, 0, 0, best);
            return best[0];
        }
        if (shape.equals("woven")) {
            return program.spindle(it);
        }
        AtomicLong best = new AtomicLong();
        switch (shape) {
            case "atomic" -> atomic(it, 0, 0, 0, best);
            case "atomic3" -> atomic3(it, 0, 0, 0, best);
            case "prologue" -> prologue(it, 0, 0, 0, best);
            case "count" -> count(it, 0, 0, 0, best);
            case "serial" -> serial(it, 0, 0, 0, best);
            case "serial-nocount" -> serialNoCount(it, 0, 0, 0, best);
            case "serial-noprologue" -> serialNoPrologue(it, 0, 0, 0, best);
            case "serial-nohandle" -> serialNoHandle(it, 0, 0, 0, best);
            case "count-static" -> countStatic(it, 0, 0, 0, best);
            case "count-param" -> countParam(it, 0, 0, 0, best, new long[1]);
            case "one-path" -> onePath(it, 0, 0, 0, best);
            case "one-path-param" -> onePathParam(it, 0, 0, 0, best, (Worker) Thread.currentThread());
            case "one-path-try" -> onePathTry(it, 0, 0, 0, best);
            case "one-path-handle" -> onePathHandle(it, 0, 0, 0, best);
            case "one-path-nocount" -> onePathNoCount(it, 0, 0, 0, best);
            case "one-path-noprologue" -> onePathNoPrologue(it, 0, 0, 0, best);
            default -> throw new IllegalStateException("checked in main: " + shape);
        }
        return best.get();
    }

    static void array(Knapsack.Items it, int i, long weight, long value, long[] best) {
        if (value > best[0]) {
            best[0] = value;
        }
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best[0]) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            array(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
        }
        array(it, i + 1, weight, value, best);
    }

    static void atomic(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            atomic(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
        }
        atomic(it, i + 1, weight, value, best);
    }

    static void atomic3(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            atomic3(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            atomic3(it, i + 1, weight, value, best);
        } else {
            atomic3(it, i + 1, weight, value, best);
        }
    }

    static void prologue(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (SerialFutures.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            prologue(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
        }
        prologue(it, i + 1, weight, value, best);
    }

    static void count(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            SerialFutures.countMadeInPlace();
            count(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
        }
        count(it, i + 1, weight, value, best);
    }

    static void serial(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (SerialFutures.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            SerialFutures.countMadeInPlace();
            Throwable failure = null;
            try {
                serial(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            } catch (Throwable t) {
                failure = t;
            }
            LazyFuture<Object> take = SerialFutures.handle(null, failure);
            serial(it, i + 1, weight, value, best);
            SerialFutures.touchInPlace(take);
        } else {
            serial(it, i + 1, weight, value, best);
        }
    }

    static void serialNoCount(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (SerialFutures.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            Throwable failure = null;
            try {
                serialNoCount(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            } catch (Throwable t) {
                failure = t;
            }
            LazyFuture<Object> take = SerialFutures.handle(null, failure);
            serialNoCount(it, i + 1, weight, value, best);
            SerialFutures.touchInPlace(take);
        } else {
            serialNoCount(it, i + 1, weight, value, best);
        }
    }

    static void serialNoPrologue(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            SerialFutures.countMadeInPlace();
            Throwable failure = null;
            try {
                serialNoPrologue(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            } catch (Throwable t) {
                failure = t;
            }
            LazyFuture<Object> take = SerialFutures.handle(null, failure);
            serialNoPrologue(it, i + 1, weight, value, best);
            SerialFutures.touchInPlace(take);
        } else {
            serialNoPrologue(it, i + 1, weight, value, best);
        }
    }

    static void serialNoHandle(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (SerialFutures.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            SerialFutures.countMadeInPlace();
            serialNoHandle(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            serialNoHandle(it, i + 1, weight, value, best);
        } else {
            serialNoHandle(it, i + 1, weight, value, best);
        }
    }

    static void countStatic(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            staticCount++;
            countStatic(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
        }
        countStatic(it, i + 1, weight, value, best);
    }

    static void countParam(Knapsack.Items it, int i, long weight, long value, AtomicLong best, long[] count) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (weight + it.weight()[i] <= it.capacity()) {
            count[0]++;
            countParam(it, i + 1, weight + it.weight()[i], value + it.value()[i], best, count);
        }
        countParam(it, i + 1, weight, value, best, count);
    }

    static void onePath(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (SerialFutures.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        SerialFutures.countMadeInPlace();
        Throwable failure = null;
        try {
            if (weight + it.weight()[i] <= it.capacity()) {
                onePath(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            }
        } catch (Throwable t) {
            failure = t;
        }
        LazyFuture<Object> take = SerialFutures.handle(null, failure);
        onePath(it, i + 1, weight, value, best);
        SerialFutures.touchInPlace(take);
    }

    static void onePathParam(Knapsack.Items it, int i, long weight, long value, AtomicLong best, Worker w) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (w.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        ShapeProbe.MADE_IN_PLACE.set(w, (long) ShapeProbe.MADE_IN_PLACE.get(w) + 1L);
        Throwable failure = null;
        try {
            if (weight + it.weight()[i] <= it.capacity()) {
                onePathParam(it, i + 1, weight + it.weight()[i], value + it.value()[i], best, w);
            }
        } catch (Throwable t) {
            failure = t;
        }
        LazyFuture<Object> take = SerialFutures.handle(null, failure);
        onePathParam(it, i + 1, weight, value, best, w);
        SerialFutures.touchInPlace(take);
    }

    static void onePathTry(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        try {
            if (weight + it.weight()[i] <= it.capacity()) {
                onePathTry(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            }
        } catch (Throwable t) {
            onePathTry(it, i + 1, weight, value, best);       // the rest of the node, then the failure
            throw t;
        }
        onePathTry(it, i + 1, weight, value, best);
    }

    static void onePathHandle(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        Throwable failure = null;
        try {
            if (weight + it.weight()[i] <= it.capacity()) {
                onePathHandle(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            }
        } catch (Throwable t) {
            failure = t;
        }
        LazyFuture<Object> take = SerialFutures.handle(null, failure);
        onePathHandle(it, i + 1, weight, value, best);
        SerialFutures.touchInPlace(take);
    }

    static void onePathNoCount(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        if (SerialFutures.mayKeepLatent()) {
            Knapsack.spindle(it, i, weight, value, best);
            return;
        }
        Throwable failure = null;
        try {
            if (weight + it.weight()[i] <= it.capacity()) {
                onePathNoCount(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            }
        } catch (Throwable t) {
            failure = t;
        }
        LazyFuture<Object> take = SerialFutures.handle(null, failure);
        onePathNoCount(it, i + 1, weight, value, best);
        SerialFutures.touchInPlace(take);
    }

    static void onePathNoPrologue(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return;
        }
        SerialFutures.countMadeInPlace();
        Throwable failure = null;
        try {
            if (weight + it.weight()[i] <= it.capacity()) {
                onePathNoPrologue(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
            }
        } catch (Throwable t) {
            failure = t;
        }
        LazyFuture<Object> take = SerialFutures.handle(null, failure);
        onePathNoPrologue(it, i + 1, weight, value, best);
        SerialFutures.touchInPlace(take);
    }
}
