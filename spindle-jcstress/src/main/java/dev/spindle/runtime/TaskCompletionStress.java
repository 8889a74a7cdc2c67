package dev.spindle.runtime;

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

/** jcstress tests of {@link Task}'s completion protocol. */
public final class TaskCompletionStress {
    private TaskCompletionStress() {
    }

    /** Completion racing cancellation: exactly one outcome, and a cancelled-before-start body never runs. */
    @JCStressTest
    @Description("run vs cancel: one outcome wins; cancel before start means the body never ran")
    @Outcome(id = "1, 3, 0", expect = Expect.ACCEPTABLE, desc = "cancelled before the body started")
    @Outcome(id = "1, 3, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "cancelled while running: result discarded")
    @Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "completed before cancel")
    @Outcome(expect = Expect.FORBIDDEN, desc = "inconsistent outcome")
    @State
    public static class RunVersusCancel {
        int ran;
        final Task<Integer> t = new Task<>() {
            @Override
            protected Integer compute() {
                ran++;
                return 7;
            }
        };
        boolean cancelled;

        @Actor
        public void runner() {
            t.run();
        }

        @Actor
        public void canceller() {
            cancelled = t.cancel(false);
        }

        @Arbiter
        public void check(III_Result r) {
            r.r1 = cancelled ? 1 : 0;
            r.r2 = t.isCancelled() ? 3 : t.isCompletedNormally() ? 1 : 0;
            r.r3 = ran;
        }
    }

    /** A joiner that sees the task done sees everything the body wrote. */
    @JCStressTest
    @Description("value visibility: done implies the body's writes are visible")
    @Outcome(id = "-1", expect = Expect.ACCEPTABLE, desc = "not done yet")
    @Outcome(id = "42", expect = Expect.ACCEPTABLE, desc = "done, saw the result and its contents")
    @Outcome(expect = Expect.FORBIDDEN, desc = "done but saw stale contents")
    @State
    public static class ValueVisibility {
        static final class Box {
            int v;
        }

        final Task<Box> t = new Task<>() {
            @Override
            protected Box compute() {
                Box b = new Box();
                b.v = 42;
                return b;
            }
        };

        @Actor
        public void runner() {
            t.run();
        }

        @Actor
        public void joiner(I_Result r) {
            r.r1 = t.isDone() ? t.join().v : -1;
        }
    }

    /** A joiner that sees the task done gets its exception. */
    @JCStressTest
    @Description("exception delivery: a failed task reports its exception to every observer")
    @Outcome(id = "0", expect = Expect.ACCEPTABLE, desc = "not done yet")
    @Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "done and the exception was delivered")
    @Outcome(expect = Expect.FORBIDDEN, desc = "done but no or a wrong exception")
    @State
    public static class ExceptionDelivery {
        static final IllegalStateException BOOM = new IllegalStateException("boom");
        final Task<Integer> t = new Task<>() {
            @Override
            protected Integer compute() {
                throw BOOM;
            }
        };

        @Actor
        public void runner() {
            t.run();
        }

        @Actor
        public void joiner(I_Result r) {
            if (!t.isDone()) {
                r.r1 = 0;
                return;
            }
            try {
                t.join();
                r.r1 = 2;
            } catch (IllegalStateException e) {
                r.r1 = e == BOOM ? 1 : 3;
            }
        }
    }

    /**
     * No lost wake-up: a waiter that registers and then finds the task not done must have been
     * taken off the waiter stack (and unparked) by the completer.
     */
    @JCStressTest
    @Description("waiter registration vs completion: the waiter sees done, or the completer releases it")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "waiter saw the task done")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "waiter saw pending; completer released it")
    @Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "lost wake-up: pending, still registered")
    @Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "saw done; stale node is harmless")
    @State
    public static class WaiterVersusCompletion {
        final Task<Integer> t = new Task<>() {
            @Override
            protected Integer compute() {
                return 1;
            }
        };
        boolean sawDone;

        @Actor
        public void completer() {
            t.run();
        }

        @Actor
        public void waiter() {
            t.registerWaiter(new Task.WaitNode(Thread.currentThread()));
            sawDone = t.isDone();
        }

        @Arbiter
        public void check(II_Result r) {
            r.r1 = sawDone ? 1 : 0;
            r.r2 = t.hasWaiters() ? 1 : 0;
        }
    }
}
