package dev.spindle.future;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.I_Result;

import java.util.concurrent.CancellationException;
import java.util.function.Supplier;

/**
 * jcstress tests of the lazy-future completion protocol: the claim that makes a promoted body run
 * exactly once whoever races for it, the release/acquire publication of the outcome through the
 * future's cell and its promoted task (which two touchers of one handle may each cache in the cell
 * and drop from the future's table), cancellation racing a touch, and a touch racing the owner's promotion.
 */
public final class FutureCompletionStress {
    private FutureCompletionStress() {
    }

    /**
     * A promoted future (in the runner's hands, as if taken from a deque) whose body counts its
     * runs; subclasses say what the body then does.
     */
    abstract static class PromotedState {
        int runs;
        final LazyFuture<Integer> f;
        final PromotedFuture p;

        PromotedState() {
            Supplier<Integer> body = () -> {
                runs++;
                return outcome();
            };
            LatentStack s = LatentStack.current();
            ExposedFutures region = new ExposedFutures(s, 0L);
            p = new PromotedFuture(region, 0L, body, s);
            region.expose(0L, p);                          // as the owner does before pushing p
            f = new LazyFuture<>(region, 0L, body);
        }

        abstract Integer outcome();
    }

    @JCStressTest
    @Description("deque runner vs toucher: the body runs exactly once and the toucher gets its value")
    @Outcome(id = "1, 42", expect = Expect.ACCEPTABLE, desc = "ran once, value delivered")
    @Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, never, or wrong value")
    @State
    public static class RunnerVersusToucher extends Holder {
        @Actor
        public void runner() {
            p.run();
        }

        @Actor
        public void toucher(II_Result r) {
            r.r2 = f.touch();
        }

        @Arbiter
        public void check(II_Result r) {
            r.r1 = runs;
        }
    }

    /** A promoted future whose body returns 42. */
    public static class Holder extends PromotedState {
        @Override
        Integer outcome() {
            return 42;
        }
    }

    @JCStressTest
    @Description("two touchers of a promoted future: exactly one runs it, both get the value")
    @Outcome(id = "1, 84", expect = Expect.ACCEPTABLE, desc = "ran once, both saw 42")
    @Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, never, or a toucher saw a wrong value")
    @State
    public static class TwoTouchers extends Holder {
        int a;
        int b;

        @Actor
        public void first() {
            a = f.touch();
        }

        @Actor
        public void second() {
            b = f.touch();
        }

        @Arbiter
        public void check(II_Result r) {
            r.r1 = runs;
            r.r2 = a + b;
        }
    }

    /** A promoted future whose body throws. */
    public static class FailingHolder extends PromotedState {
        static final RuntimeException BOOM = new IllegalStateException("boom");

        @Override
        Integer outcome() {
            throw BOOM;
        }
    }

    @JCStressTest
    @Description("exception delivery: runner vs toucher of a failing body; the toucher gets the body's exception itself, the body runs once")
    @Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "ran once, toucher got the same exception")
    @Outcome(expect = Expect.FORBIDDEN, desc = "ran twice or never, or the toucher saw something else")
    @State
    public static class ExceptionDelivery extends FailingHolder {
        int got;

        @Actor
        public void runner() {
            p.run();
        }

        @Actor
        public void toucher() {
            try {
                f.touch();
                got = 2;
            } catch (IllegalStateException e) {
                got = e == BOOM ? 1 : 3;
            }
        }

        @Arbiter
        public void check(II_Result r) {
            r.r1 = runs;
            r.r2 = got;
        }
    }

    @JCStressTest
    @Description("touch vs cancel of a promoted, unstarted future: either the value (cancel fails) or a cancellation (body never runs)")
    @Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "touch won: value, cancel failed, ran once")
    @Outcome(id = "2, 1, 0", expect = Expect.ACCEPTABLE, desc = "cancel won: toucher saw CancellationException, body never ran")
    @Outcome(expect = Expect.FORBIDDEN, desc = "inconsistent")
    @State
    public static class TouchVersusCancel extends Holder {
        int touched;
        int cancelled;

        @Actor
        public void toucher() {
            try {
                touched = f.touch() == 42 ? 1 : 3;
            } catch (CancellationException e) {
                touched = 2;
            }
        }

        @Actor
        public void canceller() {
            cancelled = f.cancel(false) ? 1 : 0;
        }

        @Arbiter
        public void check(III_Result r) {
            r.r1 = touched;
            r.r2 = cancelled;
            r.r3 = runs;
        }
    }

    @JCStressTest
    @Description("inline run by the owner vs a reader: a future seen done shows everything its body wrote")
    @Outcome(id = "-1", expect = Expect.ACCEPTABLE, desc = "not published or not done yet")
    @Outcome(id = "42", expect = Expect.ACCEPTABLE, desc = "done: saw the box and its contents")
    @Outcome(expect = Expect.FORBIDDEN, desc = "done but stale contents")
    @State
    public static class InlineValueVisibility {
        static final class Box {
            int v;
        }

        volatile LazyFuture<Box> shared;

        @Actor
        public void owner() {
            // Created on this thread's latent stack, touched here: the body runs inline.
            LazyFuture<Box> f = LazyFuture.create((Supplier<Box>) () -> {
                Box b = new Box();
                b.v = 42;
                return b;
            });
            shared = f;
            f.touch();
        }

        @Actor
        public void reader(I_Result r) {
            LazyFuture<Box> f = shared;
            r.r1 = f != null && f.isDone() ? f.touch().v : -1;
        }
    }

    @JCStressTest
    @Description("touch of a latent future racing its owner's promotion and a pool worker: runs once, both get the value")
    @Outcome(id = "1, 42, 42", expect = Expect.ACCEPTABLE, desc = "ran once, both touchers saw 42")
    @Outcome(id = "1, 42, -1", expect = Expect.ACCEPTABLE, desc = "ran once; the other toucher found nothing published yet")
    @Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, never, or a wrong value")
    @State
    public static class TouchVersusPromotion {
        volatile int runs;
        volatile LazyFuture<Integer> shared;
        int ownerSaw;
        int otherSaw = -1;

        @Actor
        public void owner() {
            LazyFuture<Integer> f = LazyFuture.create((Supplier<Integer>) () -> {
                runs++;
                return 42;
            });
            shared = f;
            LatentStack.current().exposeAll("stress");   // into the default pool: a worker may run it too
            ownerSaw = f.touch();
        }

        @Actor
        public void other() {
            LazyFuture<Integer> f = shared;
            if (f != null) {
                otherSaw = f.touch();                     // latent: asks the owner, who exposes it
            }
        }

        @Arbiter
        public void check(III_Result r) {
            r.r1 = runs;
            r.r2 = ownerSaw;
            r.r3 = otherSaw;
        }
    }
}
