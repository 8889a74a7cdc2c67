package dev.spindle.bench.loops;

import dev.spindle.loop.IntRangeBody;

import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * {@code IntStream.range(from, to).parallel().forEach(...)}, run inside a ForkJoinPool of the
 * requested parallelism (a parallel stream started from a pool's worker runs in that pool).
 */
final class StreamLoops extends LoopRunner {
    private final ForkJoinPool pool;

    StreamLoops(int workers) {
        this.pool = new ForkJoinPool(workers);
    }

    @Override
    void loop(int from, int to, IntRangeBody body) {
        IntStream.range(from, to).parallel().forEach(i -> body.run(i, i + 1));
    }

    @Override
    <R> R run(Supplier<R> computation) {
        return pool.submit(computation::get).join();
    }

    @Override
    Map<String, Long> schedulerCounters() {
        return Map.of("steals", pool.getStealCount());
    }

    @Override
    public void close() {
        pool.close();
    }
}
