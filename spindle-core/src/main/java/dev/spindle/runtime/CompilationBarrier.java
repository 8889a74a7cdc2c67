package dev.spindle.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Keeps the scheduler's code out of the compilation units of user tasks.
 *
 * <p>{@code fork()}, {@code join()} and {@code tryUnfork()} are called from inside user code such
 * as a recursive {@code compute()}. If C2 inlined the scheduler behind them, every branch in it
 * that is never taken at one worker but sometimes at two (a share request, a stolen task, a task
 * already done, a parked joiner) would be compiled as an uncommon trap <em>inside the user's
 * method</em>; each trap that fires throws the whole recursive method away, and C2 takes ~100 ms
 * to rebuild it while it runs as profiled C1 code. Measured: Fib(40) at two workers stuck at
 * ~290 ms instead of ~170 ms in some JVMs, with {@code compute()} recompiled 2–4 times after the
 * switch to two workers (once with this barrier).
 *
 * <p>The scheduler entry points are therefore called through method handles held in a non-final
 * instance field: C2 cannot constant-fold such a handle and never inlines through it, so a trap
 * in the scheduler deoptimizes only the small scheduler method. The price is an indirect call per
 * fork and join (a few nanoseconds), paid only by the {@code Task} API, whose tasks are coarse by
 * design.
 */
final class CompilationBarrier {
    private static final MethodHandle PUSH;
    private static final MethodHandle JOIN;
    private static final MethodHandle UNFORK;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PUSH = l.findVirtual(Worker.class, "push", MethodType.methodType(void.class, Task.class));
            JOIN = l.findVirtual(Worker.class, "helpJoin", MethodType.methodType(void.class, Task.class));
            UNFORK = l.findVirtual(Worker.class, "unforkOwn", MethodType.methodType(boolean.class, Task.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Deliberately not final: a final field's handle could be folded and inlined.
    private MethodHandle push = PUSH;
    private MethodHandle join = JOIN;
    private MethodHandle unfork = UNFORK;

    void push(Worker w, Task<?> t) {
        try {
            push.invokeExact(w, (Task) t);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    void join(Worker w, Task<?> t) {
        try {
            join.invokeExact(w, (Task) t);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    boolean unfork(Worker w, Task<?> t) {
        try {
            return (boolean) unfork.invokeExact(w, (Task) t);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
