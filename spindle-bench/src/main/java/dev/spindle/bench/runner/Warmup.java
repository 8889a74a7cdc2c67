package dev.spindle.bench.runner;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * How many untimed runs come before the timed ones: at least {@code min} runs and at least
 * {@code minNanos} of warm-up; then more while the JIT was still compiling during the last one,
 * up to {@code max} runs or {@link #BUDGET_NANOS} of warm-up, whichever comes first.
 *
 * <p>Why not a fixed count: a program made of many short loops (LUAppl: 1023 loops of 5–50 µs,
 * ~50 ms a run) leaves its scheduling code — a thief's scan, the loop's member task — running
 * in the interpreter or C1 code for several runs, and on a two-core machine the C2 compiler
 * thread that is still compiling it takes a core from the workers. Measured with
 * {@code -XX:+PrintCompilation}: after the default two warm-up runs, C2 was still compiling
 * Spindle's loop and steal paths during the fifth timed run, and the runs stole 740 of 1023 loops
 * where the same JVM after 20 warm-up runs stole 997. A fixed count large enough for such
 * programs wastes minutes on long ones (a 1 s Fib run is compiled after one run).
 *
 * <p>Why a least time as well: code that runs once per loop (the loop's entry, the member's push
 * and join, the thief's steal) is called about a thousand times per LUAppl run, and tiered
 * compilation moves a method from C1's profiling code to C2 after some ten thousand calls. Until
 * then nothing is being compiled, so the JIT looks quiet while that code still runs C1's
 * profiled version (it writes the profile counters from both workers). Measured, same command:
 * in one JVM C2 compiled {@code Worker.helpJoin} only during the twelfth run; in another, with
 * the JIT-quiet rule alone, the warm-up stopped after eight runs and the timed runs still went
 * from 46 ms down to 32 ms. A second of warm-up is about twenty LUAppl runs, and a run or two of
 * the longer programs, which their least count covers anyway.
 *
 * <p>Why a program may ask for more runs ({@link dev.spindle.bench.suite.Benchmark#warmupRuns()}):
 * code that runs once per parallel loop (a worker's {@code helpJoin}, {@code search} and
 * {@code runFound}, the loop's entry) reaches C2 only after some five thousand loops, whatever the
 * time, and a C2 compilation on a two-core machine takes a core from the workers for tens of
 * milliseconds. Seed 003's Stress runs 40 to 256 loops per run: after a second of warm-up the
 * 40-loop row had run ~400 loops and its timed runs met those compilations (Stress-40 static
 * 0.97 ms per loop, Stress-256 0.87: a 12.6% "per-loop cost" that was the JIT's tier-up), while
 * the 256-loop row had already passed them. {@code -XX:+PrintCompilation} on Stress-40 showed
 * {@code Worker.helpJoin} compiled at ~3000 loops and {@code Worker.runFound},
 * {@code Loops.parallelForRange} at ~5400 (PERFORMANCE.md, loops suite, "Stress: the JIT counts
 * loops"). Such a program states the least number of runs that gets every row past the same
 * count. It applies with the adaptive warm-up only: {@code --warmup-time 0} still means exactly
 * {@code --warmup} runs.
 *
 * <p>"Still compiling" is: the JVM's total compilation time grew during the run by more than
 * {@link #QUIET_MS} ms or more than {@link #QUIET_FRACTION} of the run's time, or, when the run
 * ended, a compiler thread was compiling a method or one was queued ({@link CompilerQueue}: the
 * total grows only when a compilation ends, so a long C2 compilation still under way looked quiet
 * and took a core from the first timed runs). The total counts every compiler thread and every
 * method, so some compilation unrelated to the benchmark (the runner's own reporting) falls under
 * the threshold; a JVM that reports neither gets the least count and time only.
 *
 * @param min      untimed runs always made (the runner's {@code --warmup})
 * @param minNanos warm-up time always spent ({@code --warmup-time}, in milliseconds there)
 * @param max      most untimed runs ({@code --max-warmup}); at least {@code min}
 * @param jitRuns  untimed runs the program needs for the JIT (its {@code warmupRuns()}), made
 *                 unless the warm-up is a fixed count ({@code minNanos} 0); not limited by
 *                 {@code max} or the time budget, and not counted in {@code min} for progress
 */
record Warmup(int min, long minNanos, int max, int jitRuns) {
    /** Compilation below this many milliseconds in a run counts as quiet, whatever the run's length. */
    static final long QUIET_MS = 2;
    /** Compilation below this fraction of a run's time counts as quiet. */
    static final double QUIET_FRACTION = 0.01;
    /** Warm-up time after which no run is added for the JIT's sake. */
    static final long BUDGET_NANOS = 20_000_000_000L;

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    Warmup {
        if (min < 0) {
            throw new IllegalArgumentException("warm-up runs must be at least 0, was " + min);
        }
        if (minNanos < 0) {
            throw new IllegalArgumentException("warm-up time must be at least 0, was " + minNanos + " ns");
        }
        if (max < min) {
            throw new IllegalArgumentException("most warm-up runs (" + max + ") is below the least (" + min + ")");
        }
        if (jitRuns < 0) {
            throw new IllegalArgumentException("a program's warm-up runs must be at least 0, was " + jitRuns);
        }
    }

    /** The command line's warm-up, before any program's own least count. */
    Warmup(int min, long minNanos, int max) {
        this(min, minNanos, max, 0);
    }

    /**
     * This warm-up for a program that needs {@code runs} untimed runs to get past the JIT's
     * compilation of its per-operation code (see the class comment); a fixed count stays fixed.
     *
     * @param runs the program's {@code warmupRuns()}
     * @return the warm-up to use for it
     */
    Warmup forProgram(int runs) {
        if (minNanos == 0 || runs <= jitRuns) {
            return this;
        }
        return new Warmup(min, minNanos, max, runs);
    }

    /**
     * Decides whether another untimed run comes.
     *
     * @param done        untimed runs made so far
     * @param lastRunNs   the last untimed run's wall time
     * @param lastJitMs   compilation time the JVM spent during it, or -1 if unknown
     * @param spentNs     wall time of all untimed runs so far
     * @param compiling   whether a method was being compiled or queued when the last run ended
     * @return true to make another untimed run
     */
    boolean another(int done, long lastRunNs, long lastJitMs, long spentNs, boolean compiling) {
        if (done < min || done < jitRuns) {
            return true;
        }
        if (done == 0 || done >= max || spentNs >= BUDGET_NANOS) {
            return false;
        }
        if (spentNs < minNanos) {
            return true;
        }
        if (compiling) {
            return true;
        }
        if (lastJitMs < 0) {
            return false;
        }
        return compiled(lastRunNs, lastJitMs);
    }

    /** Most times one measurement starts its timed runs again (see {@link #restartsTiming}). */
    static final int MAX_RESTARTS = 10;

    /**
     * Decides whether a timed run during which the JIT compiled is thrown away, with the timed runs
     * before it, so that timing starts again: when the run's compilation is not quiet (the same
     * rule as for a warm-up run), the warm-up is not a fixed count, fewer than
     * {@link #MAX_RESTARTS} restarts were made and the warm-up, these runs included, has spent less
     * than {@link #BUDGET_NANOS}.
     *
     * <p>Why: no warm-up rule sees a compilation coming. A method reaches C2 when its own call
     * count crosses a threshold, and a program that calls many small methods a few times per run
     * can bring one of them there in any run. Seed 003's Stress calls each of its loop bodies once
     * per chunk: with 16,000 warm-up loops, the 40-loop row's bodies reached C2's 5,000 calls under
     * the guided schedule (12–15 chunks per loop) just as timing began, and the timed runs carried
     * 3–5 ms of compilation each (0.157–0.207 ms per loop against 0.133 at 256 loops); with
     * 20,000, guided was level and the auto schedule's 128-loop row met the same fate (0.215 ms per
     * loop, 16 ms of compilation per 27-ms run; docs/PERFORMANCE.md, loops suite, "Stress: timed
     * runs with the compiler in them").
     *
     * @param runNs     the timed run's wall time
     * @param runJitMs  compilation time during it, or -1 if the JVM does not say
     * @param restarts  restarts made so far for this measurement
     * @param warmNs    warm-up time spent so far, not counting this run
     * @return whether to time again from the next run
     */
    boolean restartsTiming(long runNs, long runJitMs, int restarts, long warmNs) {
        if (minNanos == 0 || runJitMs < 0 || restarts >= MAX_RESTARTS || warmNs + runNs >= BUDGET_NANOS) {
            return false;
        }
        return compiled(runNs, runJitMs);
    }

    /** The rule both use: more than {@link #QUIET_MS} and more than {@link #QUIET_FRACTION} of the run. */
    private static boolean compiled(long runNs, long jitMs) {
        return jitMs > QUIET_MS && jitMs > QUIET_FRACTION * runNs / 1e6;
    }

    /** @return the JVM's total compilation time so far in milliseconds, or -1 if it does not say */
    static long jitMillis() {
        return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : -1;
    }
}
