package dev.spindle.future;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * jcstress test of a promoted woven call ({@link FutureCall} → {@link PromotedCall}): the thief
 * that took the task from a deque and the owner reading the variable race for it. The call must
 * run exactly once, and the owner must read the result the thief wrote into the record (the task's
 * completion is the release, the owner's wait the acquire) — or make the call itself.
 */
@JCStressTest
@Description("thief vs owner of a promoted woven call: runs once, the owner reads the result")
@Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "ran once, the owner got the result")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, never, or the owner read a stale record")
@State
public class FutureCallStress {
    int runs;
    final FutureCall call;
    final PromotedCall task;

    public FutureCallStress() {
        LatentStack s = LatentStack.current();
        call = s.takeCall(c -> {
            runs++;
            c.resultLong(c.argLong(0) * 2);
        });
        call.putLong(0, 21);
        task = (PromotedCall) call.promote(s);
    }

    @Actor
    public void thief() {
        task.run();
    }

    @Actor
    public void owner(JJ_Result r) {
        r.r2 = FutureCall.touchLong(call);
    }

    @Arbiter
    public void check(JJ_Result r) {
        r.r1 = runs;
    }
}
