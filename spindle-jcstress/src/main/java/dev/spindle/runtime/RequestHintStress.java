package dev.spindle.runtime;

import dev.spindle.deque.SplitDeque;
import dev.spindle.future.LatentStack;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * jcstress test of the request hint at a woven serial method's prologue
 * ({@link Worker#mayKeepLatent}, {@link LatentStack#requestBehindHint}): the worker's hint was
 * left set by a request already served (a stale hint), its stack has no room, and a thief asks
 * for work ({@link LatentStack#requestOne}: the request, then the hint) while the owner's prologue
 * clears the stale hint. A request must never end up pending with the hint cleared: no later
 * prologue would see it. (Where the owner clears the hint after the thief's request and reads the
 * request again, it sets the hint again itself: outcome "1, 1, 1".)
 *
 * <p>The worker is a fresh, unstarted {@link Worker} of a pool of one per state, so nothing but
 * the two actors touches its hint and its stack.
 */
@JCStressTest
@Description("stale request hint cleared at the prologue versus a new request: the request is never hidden")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "the owner cleared the stale hint, then the thief asked and set it")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "the thief asked first: the owner saw the request and kept the hint")
@Outcome(expect = Expect.FORBIDDEN, desc = "a request pending with the hint cleared: no later prologue would see it")
@State
public class RequestHintStress {
    private static final SpindlePool POOL = new SpindlePool(1);

    final Worker worker = new Worker(POOL, 0, new SplitDeque<>(), null);
    final LatentStack stack = worker.latentStack();

    public RequestHintStress() {
        worker.latentRoom(false);
        worker.hintRequest();                      // set with nothing behind it
    }

    @Actor
    public void thief() {
        stack.requestOne();
    }

    @Actor
    public void owner(III_Result r) {
        r.r1 = worker.mayKeepLatent() ? 1 : 0;
    }

    @Arbiter
    public void check(III_Result r) {
        r.r2 = worker.requestHinted() ? 1 : 0;
        r.r3 = stack.requestBehindHint() ? 1 : 0;
    }
}
