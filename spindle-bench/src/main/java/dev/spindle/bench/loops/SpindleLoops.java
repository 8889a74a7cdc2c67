package dev.spindle.bench.loops;

import dev.spindle.loop.IntRangeBody;
import dev.spindle.loop.Loops;
import dev.spindle.loop.Schedule;
import dev.spindle.runtime.PoolStatistics;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Spindle's {@link Loops} with one schedule, on a pool of the requested size; Jacobi as a region. */
final class SpindleLoops extends LoopRunner {
    private final SpindlePool pool;
    private final Schedule schedule;

    SpindleLoops(int workers, Schedule schedule) {
        this.pool = dev.spindle.bench.suite.Variants.spindlePool(workers);
        this.schedule = schedule;
    }

    @Override
    void loop(int from, int to, IntRangeBody body) {
        Loops.parallelForRange(from, to, schedule, body);
    }

    @Override
    void stepLoops(int steps, int from, int to, StepBody body) {
        Loops.parallelRegion(team -> {
            for (int s = 0; s < steps; s++) {
                int step = s;
                team.forEach(from, to, schedule, i -> body.run(step, i, i + 1));
            }
        });
    }

    @Override
    <R> R run(Supplier<R> computation) {
        return pool.invoke(new Task<R>() {
            @Override
            protected R compute() {
                return computation.get();
            }
        });
    }

    @Override
    Map<String, Long> schedulerCounters() {
        PoolStatistics s = pool.statistics();
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("tasks", s.tasksRun());
        m.put("steals", s.steals());
        m.put("parks", s.parks());
        m.put("busy_us", s.busyNanos() / 1000);
        m.put("wait_us", s.waitNanos() / 1000);
        return m;
    }

    @Override
    public void close() {
        pool.close();
    }
}
