package dev.spindle.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * jcstress tests of {@link WorkDescriptor}'s claim and finish protocol, on the owner's and a
 * helper's code paths without a pool: the owner prepares and opens the descriptor, runs member 0,
 * claims the rest with {@code ownerClaim} and reports with {@code ownerFinished}; a helper claims
 * with {@code tryClaim} and reports with {@code finishMember}.
 */
public final class WorkDescriptorStress {
    private WorkDescriptorStress() {
    }

    /** A descriptor whose members record which thread ran them. */
    static class Recording extends WorkDescriptor {
        final int[] ranBy;

        Recording(int members) {
            ranBy = new int[members];
            prepare(members);
        }

        @Override
        protected void runMember(int k, Worker owner) {
            throw new AssertionError("the stress tests run members through record()");
        }

        void record(int k, int who) {
            ranBy[k] += who;
        }
    }

    /**
     * An open two-member descriptor whose member 1 writes 42 to {@code data[0]}, with the idle
     * word its helper reports hunger on: the state of the two finish tests.
     */
    static final class FinishOfTwo extends Recording {
        final int[] data = new int[1];
        final IdleProtocol idle = new IdleProtocol(null);

        FinishOfTwo() {
            super(2);
            open();
        }

        /**
         * Owner: runs member 1 if it claims it, otherwise waits for the helper, on the count or on
         * the completion, then reports what it sees, whether the helper ran member 1, and whether
         * the idle word shows a hungry worker.
         */
        void own(boolean onCount, III_Result r) {
            int ran = 1;
            boolean helped = true;
            while (ownerClaim() < 2) {
                data[0] = 42;
                ran++;
                helped = false;
            }
            if (!ownerFinished(ran)) {
                Task<Void> c = completion();
                while (!(onCount ? allFinished() : c.isDone())) {
                    Thread.onSpinWait();
                }
            }
            r.r1 = data[0];
            r.r2 = helped ? 1 : 0;
            r.r3 = idle.anyoneHungry() ? 1 : 0;
        }

        /**
         * Helper, in the order a worker's main loop keeps after a member (Worker.runFound): member
         * 1 if it claims it, then it counts itself searching, then it reports the member finished.
         */
        void help() {
            if (tryClaim() >= 0) {
                data[0] = 42;
                idle.startSearching();
                finishMember();
            }
        }
    }

    /**
     * Owner and helper claim the members of an open three-member descriptor: each member is
     * claimed by exactly one of them, and pending counts every member once.
     */
    @JCStressTest
    @Description("claims: every member of an open descriptor is run exactly once, by the owner or the helper")
    @Outcome(id = "7, 0, 1", expect = Expect.ACCEPTABLE, desc = "the owner ran every member")
    @Outcome(id = "5, 2, 1", expect = Expect.ACCEPTABLE, desc = "the helper ran member 1")
    @Outcome(id = "3, 4, 1", expect = Expect.ACCEPTABLE, desc = "the helper ran member 2")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a member ran twice, or never, or pending is wrong")
    @State
    public static class ClaimsAreExclusive {
        final Recording d = new Recording(3);
        int ownerMask;
        int helperMask;
        boolean ownerLast;

        public ClaimsAreExclusive() {
            d.open();
        }

        @Actor
        public void owner() {
            d.record(0, 1);
            int mask = 1;
            int ran = 1;
            for (int k; (k = d.ownerClaim()) < 3; ) {
                d.record(k, 1);
                mask |= 1 << k;
                ran++;
            }
            ownerMask = mask;
            ownerLast = d.ownerFinished(ran);
        }

        @Actor
        public void helper() {
            int k = d.tryClaim();
            if (k >= 0) {
                d.record(k, 2);
                helperMask |= 1 << k;
                d.finishMember();
            }
        }

        @Arbiter
        public void check(III_Result r) {
            boolean once = true;
            for (int k = 0; k < 3; k++) {
                int who = d.ranBy[k];
                once &= who == 1 || who == 2;
            }
            boolean done = ownerLast || d.completion().isDone();
            r.r1 = ownerMask;
            r.r2 = helperMask;
            r.r3 = once && done && (ownerMask | helperMask) == 7 && (ownerMask & helperMask) == 0 ? 1 : 0;
        }
    }

    /**
     * What a helper's member wrote is visible to the owner once it knows every member finished:
     * by its own count reaching zero or by the completion. So is the helper's search, which it
     * starts before it reports (the owner's next descriptor then opens at install).
     */
    @JCStressTest
    @Description("finish: the owner sees the helper's member's writes, and the helper hungry, once all members are counted finished")
    @Outcome(id = "42, 0, 0", expect = Expect.ACCEPTABLE, desc = "the owner ran member 1 itself; the helper never searched")
    @Outcome(id = "42, 1, 1", expect = Expect.ACCEPTABLE, desc = "the helper ran member 1; the owner saw its write and its search")
    @Outcome(expect = Expect.FORBIDDEN, desc = "the owner returned without the helper's write or without seeing it hungry")
    @State
    public static class HelperWritesVisibleToOwner {
        final FinishOfTwo d = new FinishOfTwo();

        @Actor
        public void owner(III_Result r) {
            d.own(false, r);
        }

        @Actor
        public void helper() {
            d.help();
        }
    }

    /** The same through the owner's spin: it sees the helper's writes and search once it reads the count as zero. */
    @JCStressTest
    @Description("finish: the owner that reads pending as zero sees the helper's member's writes and the helper hungry")
    @Outcome(id = "42, 0, 0", expect = Expect.ACCEPTABLE, desc = "the owner ran member 1 itself; the helper never searched")
    @Outcome(id = "42, 1, 1", expect = Expect.ACCEPTABLE, desc = "the helper ran member 1; the owner saw its write and its search")
    @Outcome(expect = Expect.FORBIDDEN, desc = "the owner saw pending at zero without the helper's write or its search")
    @State
    public static class HelperWritesVisibleThroughCount {
        final FinishOfTwo d = new FinishOfTwo();

        @Actor
        public void owner(III_Result r) {
            d.own(true, r);
        }

        @Actor
        public void helper() {
            d.help();
        }
    }

    /**
     * A helper that finds the descriptor private claims nothing and marks it wanted; once the owner
     * opens it, a helper's claim and the owner's never return the same member.
     */
    @JCStressTest
    @Description("open: a private descriptor hands out nothing; opening hands out the owner's next member once")
    @Outcome(id = "-1, 1, 1", expect = Expect.ACCEPTABLE, desc = "the helper looked while private and marked it wanted")
    @Outcome(id = "-1, 0, 1", expect = Expect.ACCEPTABLE, desc = "the helper looked after the owner took member 1")
    @Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "the helper claimed member 1 after the opening")
    @Outcome(expect = Expect.FORBIDDEN, desc = "a member handed out twice, or before the opening")
    @State
    public static class OpenVersusClaim {
        final Recording d = new Recording(2);
        int helperGot;
        int ownerGot;

        @Actor
        public void owner() {
            d.open();
            int k = d.ownerClaim();
            ownerGot = k;
            if (k < 2) {
                d.record(k, 1);
            }
        }

        @Actor
        public void helper() {
            int k = d.tryClaim();
            helperGot = k;
            if (k >= 0) {
                d.record(k, 2);
            }
        }

        @Arbiter
        public void check(III_Result r) {
            r.r1 = helperGot;
            r.r2 = helperGot < 0 && ownerGot == 1 && d.isWanted() ? 1 : 0;
            r.r3 = d.ranBy[1] == 1 || d.ranBy[1] == 2 ? 1 : 0;
        }
    }
}
