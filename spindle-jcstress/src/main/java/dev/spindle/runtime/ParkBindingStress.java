package dev.spindle.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * jcstress test of {@link ParkBinding}'s steer / restore exclusion: a waker steering a sleeping
 * worker off its CPU races the worker restoring its own CPU set after waking. The system calls
 * are replaced by stamps from one clock; the steer must never land after the restore (which
 * would leave a running worker restricted).
 */
@JCStressTest
@Description("park binding: a waker's steer never lands after the owner's restore")
@Outcome(id = "0, 0, -1", expect = Expect.ACCEPTABLE, desc = "the owner restored first; the waker saw it unbound and did nothing")
@Outcome(id = "1, 1, -1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "steered while bound, then restored")
@Outcome(expect = Expect.FORBIDDEN, desc = "a steer after the restore, or the worker left marked bound")
@State
public class ParkBindingStress {
    private static final int CPU = 3;

    final AtomicInteger clock = new AtomicInteger();
    int restoredAt;
    int steeredAt;

    final ParkBinding binding = new ParkBinding(1, CPU) {
        @Override
        boolean restoreHome() {
            restoredAt = clock.incrementAndGet();
            return true;
        }

        @Override
        boolean steer(int cpu) {
            steeredAt = clock.incrementAndGet();
            return true;
        }
    };

    @Actor
    public void owner() {
        binding.unbind(null);
    }

    @Actor
    public void waker() {
        binding.steerAwayFrom(CPU);
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = steeredAt != 0 ? 1 : 0;
        r.r2 = steeredAt != 0 && steeredAt < restoredAt ? 1 : 0;
        r.r3 = binding.boundCpu();
    }
}
