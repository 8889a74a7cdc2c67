package dev.spindle.bench.suite;

import dev.spindle.runtime.PoolStatistics;
import dev.spindle.runtime.SpindlePool;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.function.BiFunction;
import java.util.function.Function;

/** Factories for the standard variants. */
public final class Variants {
    private Variants() {
    }

    /**
     * Plain sequential Java.
     *
     * @param body the computation
     * @param <I>  input type
     * @param <R>  result type
     * @return the variant "seq"
     */
    public static <I, R> Variant<I, R> seq(Function<I, R> body) {
        return simple("seq", body);
    }

    /**
     * A variant without a pool (for example a new Thread per fork).
     *
     * @param name the name
     * @param body the computation
     * @param <I>  input type
     * @param <R>  result type
     * @return the variant
     */
    public static <I, R> Variant<I, R> simple(String name, Function<I, R> body) {
        return simple(name, body, false);
    }

    /**
     * The naive baseline: a new Thread per fork. Timed once, without warm-up (see
     * {@link Variant#singleRun()}).
     *
     * @param body the computation
     * @param <I>  input type
     * @param <R>  result type
     * @return the variant "threads"
     */
    public static <I, R> Variant<I, R> threads(Function<I, R> body) {
        return simple("threads", body, true);
    }

    private static <I, R> Variant<I, R> simple(String name, Function<I, R> body, boolean singleRun) {
        return Variant.of(name, false, singleRun, workers -> body::apply);
    }

    /** The system property that makes every Spindle variant pin its workers to CPUs. */
    public static final String PIN_PROPERTY = "spindle.bench.pin";

    /**
     * A fresh {@link SpindlePool} for a Spindle variant: {@code workers} workers, pinned to CPUs
     * if {@code -Dspindle.bench.pin=true} (the runner: {@code --set spindle.bench.pin=true}).
     *
     * @param workers the number of workers
     * @return the pool
     */
    public static SpindlePool spindlePool(int workers) {
        SpindlePool pool = new SpindlePool(workers);
        if (Boolean.getBoolean(PIN_PROPERTY)) {
            pool.setWorkerPinning(true);
        }
        return pool;
    }

    /**
     * Runs on a fresh {@link SpindlePool} of the requested size.
     *
     * @param name the name
     * @param body the computation, given the pool
     * @param <I>  input type
     * @param <R>  result type
     * @return the variant
     */
    public static <I, R> Variant<I, R> spindle(String name, BiFunction<SpindlePool, I, R> body) {
        return pooled(name, Variants::spindlePool, body, pool -> {
            PoolStatistics s = pool.statistics();
            Map<String, Long> m = new LinkedHashMap<>();
            m.put("tasks", s.tasksRun());
            m.put("steals", s.steals());
            m.put("failed_steals", s.failedSteals());
            m.put("parks", s.parks());
            m.put("helping_joins", s.helpingJoins());
            m.put("quiet_windows", s.quietWindows());
            m.put("busy_us", s.busyNanos() / 1000);
            m.put("wait_us", s.waitNanos() / 1000);
            return m;
        });
    }

    /**
     * Runs on a fresh {@link ForkJoinPool} of the requested parallelism.
     *
     * @param name the name
     * @param body the computation, given the pool
     * @param <I>  input type
     * @param <R>  result type
     * @return the variant
     */
    public static <I, R> Variant<I, R> fjp(String name, BiFunction<ForkJoinPool, I, R> body) {
        return pooled(name, ForkJoinPool::new, body, pool -> Map.of("steals", pool.getStealCount()));
    }

    /**
     * A variant that owns a pool (an ExecutorService) per worker count, closed after measuring.
     *
     * @param name     the name
     * @param create   makes the pool for a worker count
     * @param body     the computation, given the pool
     * @param counters the pool's cumulative counters
     * @param <P>      pool type
     * @param <I>      input type
     * @param <R>      result type
     * @return the variant
     */
    public static <P extends java.util.concurrent.ExecutorService, I, R> Variant<I, R> pooled(
            String name, java.util.function.IntFunction<P> create, BiFunction<P, I, R> body,
            Function<P, Map<String, Long>> counters) {
        return Variant.of(name, true, false, workers -> {
            P pool = create.apply(workers);
            return new Variant.Instance<>() {
                @Override
                public R run(I input) {
                    return body.apply(pool, input);
                }

                @Override
                public Map<String, Long> counters() {
                    return counters.apply(pool);
                }

                @Override
                public void close() {
                    pool.close();
                }
            };
        });
    }
}
