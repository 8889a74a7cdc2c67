package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Size;
import dev.spindle.runtime.Worker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the directive suite's woven Knapsack ({@link DirectiveKnapsack}) pays per inner node over
 * its own source unwoven, piece by piece, on a pool of one worker. Below its first serial frame the
 * woven search runs its <em>worker variant</em> (spindle-weaver's {@code WorkerParameter}): the
 * current worker passed down as one more parameter, and at each potential future one plain load
 * of that worker's request hint. The shapes: the source as written ({@code seq}: the class's unwoven
 * copy, which the runner's {@code seq} runs — {@link DirectiveProgram#unwovenCopy}); the search as
 * the Maven plugin wove it ({@code woven}: the class itself); the worker variant written by hand
 * ({@code worker-param}); the worker passed but its hint never read ({@code worker-param-nohint});
 * and no parameter, the check a plain load of one static field ({@code static-hint}) — the shape
 * a hint shared by all workers would give the woven code. The hand-written shapes' other path (a
 * hint set) runs the woven search; on one worker nobody sets a hint, so it is never taken. The
 * probe times code shapes, not a protocol: its static field is its own and stays zero. The
 * hand-written shapes live in this class, and against the unwoven class they read ~1.04 even with
 * neither piece: compare them with each other; {@code woven} against {@code seq} is the runner's
 * own pair.
 *
 * <p>Prints each shape's median of its last 12 of 20 runs, the shapes alternated run by run in one
 * JVM ({@link ShapeProbe#time}). Usage: {@code java -Xms1g -Xmx1g -cp
 * spindle-bench/target/spindle-bench.jar dev.spindle.bench.futures.DirectiveKnapsackShapeProbe
 * SHAPE[,SHAPE…]}, under {@code taskset -c N} to keep the host's per-vCPU phases off the
 * comparison, in several JVMs: C2 decides each shape's recursive inlining per JVM. See
 * docs/PERFORMANCE.md, "The fifty-second session" and "The fifty-third session".
 */
public final class DirectiveKnapsackShapeProbe {
    private static final int RUNS = 20;
    private static final int TIMED = 12;
    private static final List<String> SHAPES = List.of("seq", "woven", "worker-param", "worker-param-nohint",
            "static-hint");

    /** {@code static-hint}'s hint: never set. */
    private static volatile int staticHint;
    private static final VarHandle STATIC_HINT;

    static {
        try {
            STATIC_HINT = MethodHandles.lookup().findStaticVarHandle(DirectiveKnapsackShapeProbe.class, "staticHint",
                    int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private DirectiveKnapsackShapeProbe() {
    }

    public static void main(String[] args) {
        List<String> shapes = ShapeProbe.shapes(args, SHAPES);
        Knapsack.Items it = new Knapsack().prepare(Size.DEFAULT);
        DirectiveCode<Knapsack.Items, Long> woven = new DirectiveKnapsack();
        DirectiveCode<Knapsack.Items, Long> unwoven = DirectiveProgram.unwovenCopy(woven, false);
        long expected = unwoven.run(it);
        ShapeProbe.time(shapes, shape -> () -> run(shape, it, woven, unwoven), expected, RUNS, TIMED);
    }

    private static long run(String shape, Knapsack.Items it, DirectiveCode<Knapsack.Items, Long> woven,
            DirectiveCode<Knapsack.Items, Long> unwoven) {
        if (shape.equals("seq")) {
            return unwoven.run(it);
        }
        if (shape.equals("woven")) {
            return woven.run(it);
        }
        AtomicLong best = new AtomicLong();
        switch (shape) {
            case "worker-param" -> workerParam(it, 0, 0, 0, best, (Worker) Thread.currentThread());
            case "worker-param-nohint" -> workerParamNoHint(it, 0, 0, 0, best, (Worker) Thread.currentThread());
            case "static-hint" -> staticHint(it, 0, 0, 0, best);
            default -> throw new IllegalStateException("checked in main: " + shape);
        }
        return best.get();
    }

    static int workerParam(Knapsack.Items it, int i, long weight, long value, AtomicLong best, Worker w) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return 0;
        }
        if (w.requestHintedPlain()) {
            return DirectiveKnapsack.search(it, i, weight, value, best);
        }
        int take = workerParamTake(it, i, weight, value, best, w);
        int leave = workerParam(it, i + 1, weight, value, best, w);
        return take + leave + 1;
    }

    static int workerParamTake(Knapsack.Items it, int i, long weight, long value, AtomicLong best, Worker w) {
        if (weight + it.weight()[i] > it.capacity()) {
            return 0;
        }
        return workerParam(it, i + 1, weight + it.weight()[i], value + it.value()[i], best, w);
    }

    static int workerParamNoHint(Knapsack.Items it, int i, long weight, long value, AtomicLong best, Worker w) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return 0;
        }
        int take = workerParamNoHintTake(it, i, weight, value, best, w);
        int leave = workerParamNoHint(it, i + 1, weight, value, best, w);
        return take + leave + 1;
    }

    static int workerParamNoHintTake(Knapsack.Items it, int i, long weight, long value, AtomicLong best, Worker w) {
        if (weight + it.weight()[i] > it.capacity()) {
            return 0;
        }
        return workerParamNoHint(it, i + 1, weight + it.weight()[i], value + it.value()[i], best, w);
    }

    static int staticHint(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        Knapsack.offer(best, value);
        if (i == it.weight().length || Knapsack.bound(it, i, weight, value) <= best.get()) {
            return 0;
        }
        if ((int) STATIC_HINT.get() != 0) {
            return DirectiveKnapsack.search(it, i, weight, value, best);
        }
        int take = staticHintTake(it, i, weight, value, best);
        int leave = staticHint(it, i + 1, weight, value, best);
        return take + leave + 1;
    }

    static int staticHintTake(Knapsack.Items it, int i, long weight, long value, AtomicLong best) {
        if (weight + it.weight()[i] > it.capacity()) {
            return 0;
        }
        return staticHint(it, i + 1, weight + it.weight()[i], value + it.value()[i], best);
    }
}
