package dev.spindle.bench.futures;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Variant;
import dev.spindle.bench.suite.Variants;
import dev.spindle.runtime.FutureCounts;
import dev.spindle.runtime.PoolStatistics;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A program of the futures suite, written three times: plain sequential Java, with
 * {@code Spindle.future} at every call and no threshold, and against a {@link Spawner} with a
 * threshold for the baselines. It supplies the seven variants the issue names.
 *
 * <p>Order. The baselines fork the part the sequential code does <em>second</em> and go on with
 * the first: an eagerly forked task runs its continuation first at one worker. The Spindle form
 * makes the part the sequential code does <em>first</em> the future: the runtime keeps only a few
 * futures latent (the oldest, see {@code LatentStack.runsNow}) and runs the others at their
 * creation, in the sequential order. Written the other way round, either form walks memory
 * backwards (measured on TreeSum-1M when futures were all latent and ran after their
 * continuation: 50 ns instead of 11 ns per future at one worker, the tree no longer streaming
 * through the prefetcher).
 *
 * @param <I> input type
 * @param <R> result type
 */
public abstract class FutureProgram<I, R> implements Benchmark<I, R> {

    /** @return the plain sequential computation */
    protected abstract R seq(I input);

    /** @return the computation with a Spindle future at every call (runs on a worker) */
    protected abstract R spindle(I input);

    /**
     * The computation for the baselines.
     *
     * @param input  the input
     * @param sp     how to spawn and join
     * @param cutoff the program's threshold (0: spawn at every call)
     * @return the result
     */
    protected abstract R spawned(I input, Spawner sp, int cutoff);

    /** @return the best threshold found for fjp-tuned (see docs/PERFORMANCE.md for the search) */
    protected abstract int tunedCutoff();

    /** @return the compiled-in tuned threshold */
    public final int compiledCutoff() {
        return tunedCutoff();
    }

    /** @return thresholds the {@code tune} command tries */
    public abstract int[] tuningCandidates();

    /** @return the threshold actually used: {@code -Dspindle.bench.cutoff.<name>} overrides the tuned one */
    final int cutoff() {
        return Integer.getInteger("spindle.bench.cutoff." + name(), tunedCutoff());
    }

    @Override
    public List<Variant<I, R>> variants() {
        return List.of(
                Variants.seq(this::seq),
                Variants.pooled("spindle", Variants::spindlePool, (pool, in) -> pool.invoke(new Task<R>() {
                    @Override
                    protected R compute() {
                        return spindle(in);
                    }
                }), FutureProgram::spindleCounters),
                Variants.fjp("fjp-tuned", (pool, in) -> pool.invoke(ForkJoinTask.adapt(() -> spawned(in, Spawner.FJP, cutoff())))),
                Variants.fjp("fjp-nocutoff", (pool, in) -> pool.invoke(ForkJoinTask.adapt(() -> spawned(in, Spawner.FJP, 0)))),
                Variants.simple("j5-st", in -> spawned(in, Spawner.THREAD_PER_FUTURE, cutoff())),
                Variants.pooled("j5-tp", workers -> new ThreadPoolExecutor(workers, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                        new SynchronousQueue<>()), (pool, in) -> spawned(in, Spawner.executor(pool), cutoff()), pool -> Map.of()),
                // CompletableFuture.join on a pool worker blocks with compensation threads; the
                // default cap (256 + P) deadlocks nested joins, so allow as many as a JVM may have.
                Variants.pooled("cf", workers -> new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory,
                        null, false, 0, 32767, 1, null, 60, TimeUnit.SECONDS),
                        (pool, in) -> spawned(in, Spawner.completable(pool), cutoff()), pool -> Map.of()));
    }

    /** The pool's steal, park and future counters (a mutable map), as every futures-suite row reports them. */
    static Map<String, Long> spindleCounters(SpindlePool pool) {
        PoolStatistics s = pool.statistics();
        FutureCounts f = s.futures();
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("steals", s.steals());
        m.put("parks", s.parks());
        m.put("quiet_windows", s.quietWindows());
        m.put("busy_us", s.busyNanos() / 1000);
        m.put("wait_us", s.waitNanos() / 1000);
        m.put("futures", f.created());
        m.put("futures_inline", f.inline());
        m.put("futures_promoted", f.promoted());
        m.put("futures_stolen", f.stolen());
        return m;
    }

    /** Equality check for exact results. */
    protected static String exact(Object expected, Object actual) {
        return expected.equals(actual) ? null : "expected " + expected + ", got " + actual;
    }
}
