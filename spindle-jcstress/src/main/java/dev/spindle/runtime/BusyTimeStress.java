package dev.spindle.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

/**
 * jcstress test of a worker's busy time as a statistics snapshot reads it while the worker runs
 * ({@link WorkerCounters#busyNanos(long)}): the owner runs a task from time 10 to 15, then starts
 * one at 20; a snapshot at time 100 counts the first task in flight (90), the first task done
 * (5), or the first done and the second in flight (5 + 80 = 85), or nothing yet (0). Never the
 * first task twice (95: its time added and still counted in flight), nor the second task's
 * start without the first task's time (80).
 */
@JCStressTest
@Description("busy time read while the owner ends one task and starts the next: no task counted twice or lost")
@Outcome(id = "0", expect = Expect.ACCEPTABLE, desc = "before the first task")
@Outcome(id = "90", expect = Expect.ACCEPTABLE, desc = "the first task in flight")
@Outcome(id = "5", expect = Expect.ACCEPTABLE, desc = "between the tasks")
@Outcome(id = "85", expect = Expect.ACCEPTABLE, desc = "the first task done, the second in flight")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task counted twice, or a finished task's time missing")
@State
public class BusyTimeStress {
    final WorkerCounters counters = new WorkerCounters();

    @Actor
    public void owner() {
        counters.taskStarted(10L);
        counters.taskEnded(10L, 15L);
        counters.taskStarted(20L);
    }

    @Actor
    public void snapshot(J_Result r) {
        r.r1 = counters.busyNanos(100L);
    }
}
