package dev.spindle.deque;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * jcstress tests of {@link SplitDeque}: push/pop/steal/share races. Elements are Integers; 0 in
 * a result means "got nothing". The invariant in every test: each element is taken exactly once.
 */
public final class SplitDequeStress {
    private SplitDequeStress() {
    }

    /** How many times each element 1..max was taken: by the actors, then what is left in the deque. */
    static int[] tally(SplitDeque<Integer> d, int max, Integer... taken) {
        int[] c = new int[max + 1];
        for (Integer x : taken) {
            if (x != null) {
                c[x]++;
            }
        }
        for (Integer x; (x = d.pop()) != null; ) {
            c[x]++;
        }
        return c;
    }

    /** The owner's pop and a thief's steal race for the only, shared element. */
    @JCStressTest
    @Description("owner pop vs thief steal on the last shared element: exactly one wins")
    @Outcome(id = {"1, 0", "0, 1"}, expect = Expect.ACCEPTABLE, desc = "exactly one took it")
    @Outcome(expect = Expect.FORBIDDEN, desc = "lost or duplicated")
    @State
    public static class PopVersusSteal {
        final SplitDeque<Integer> d = new SplitDeque<>(2);

        public PopVersusSteal() {
            d.push(1);
            d.share();
        }

        @Actor
        public void owner(II_Result r) {
            Integer x = d.pop();
            r.r1 = x == null ? 0 : x;
        }

        @Actor
        public void thief(II_Result r) {
            Integer x = d.steal();
            r.r2 = x == null ? 0 : x;
        }
    }

    /** Two thieves race for two shared elements (jcstress runs at most 2 actors on 2 CPUs). */
    @JCStressTest
    @Description("two thieves race for two shared elements: each taken exactly once")
    @Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "element 1 and element 2 each taken once")
    @Outcome(expect = Expect.FORBIDDEN, desc = "an element lost (0) or duplicated (2)")
    @State
    public static class TwoThieves {
        final SplitDeque<Integer> d = new SplitDeque<>(2);
        Integer byThief1, byThief2;

        public TwoThieves() {
            d.push(1);
            d.push(2);
            d.share();
            d.share();
        }

        @Actor
        public void thief1() {
            byThief1 = d.steal();
        }

        @Actor
        public void thief2() {
            byThief2 = d.steal();
        }

        @Arbiter
        public void count(II_Result r) {
            int[] c = tally(d, 2, byThief1, byThief2);
            r.r1 = c[1];
            r.r2 = c[2];
        }
    }

    /** The owner pops twice (reclaiming the shared region) while a thief steals. */
    @JCStressTest
    @Description("owner pops both shared elements vs thief steal: each taken exactly once")
    @Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "element 1 and element 2 each taken once")
    @Outcome(expect = Expect.FORBIDDEN, desc = "an element lost (0) or duplicated (2)")
    @State
    public static class OwnerDrainsVersusThief {
        final SplitDeque<Integer> d = new SplitDeque<>(2);
        Integer byOwner1, byOwner2, byThief;

        public OwnerDrainsVersusThief() {
            d.push(1);
            d.push(2);
            d.share();
            d.share();
        }

        @Actor
        public void owner() {
            byOwner1 = d.pop();
            byOwner2 = d.pop();
        }

        @Actor
        public void thief() {
            byThief = d.steal();
        }

        @Arbiter
        public void count(II_Result r) {
            int[] c = tally(d, 2, byOwner1, byOwner2, byThief);
            r.r1 = c[1];
            r.r2 = c[2];
        }
    }

    /** A thief sees the fields of an element it stole, written before it was shared. */
    @JCStressTest
    @Description("an element is fully visible to the thief that steals it")
    @Outcome(id = "-1", expect = Expect.ACCEPTABLE, desc = "nothing shared yet")
    @Outcome(id = "42", expect = Expect.ACCEPTABLE, desc = "stole the element and saw its contents")
    @Outcome(expect = Expect.FORBIDDEN, desc = "saw a partly constructed element")
    @State
    public static class PublicationOnShare {
        static final class Box {
            int v;

            Box(int v) {
                this.v = v;
            }
        }

        final SplitDeque<Box> d = new SplitDeque<>(2);

        @Actor
        public void owner() {
            d.push(new Box(42));
            d.share();
        }

        @Actor
        public void thief(org.openjdk.jcstress.infra.results.I_Result r) {
            Box b = d.steal();
            r.r1 = b == null ? -1 : b.v;
        }
    }

    /** Owner reclaims, pushes past the ring's capacity and shares while a thief steals. */
    @JCStressTest
    @Description("owner pop + push (ring growth) + share vs thief steal: each element taken exactly once")
    @Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "elements 1..4 each taken once")
    @Outcome(expect = Expect.FORBIDDEN, desc = "an element lost (0) or duplicated (2)")
    @State
    public static class ReclaimGrowAndSteal {
        final SplitDeque<Integer> d = new SplitDeque<>(2);
        Integer byOwner, byThief;

        public ReclaimGrowAndSteal() {
            d.push(1);
            d.push(2);
            d.share();
            d.share();
        }

        @Actor
        public void owner() {
            byOwner = d.pop();
            d.push(3);
            d.push(4);
            d.share();
        }

        @Actor
        public void thief() {
            byThief = d.steal();
        }

        @Arbiter
        public void count(IIII_Result r) {
            int[] c = tally(d, 4, byOwner, byThief);
            r.r1 = c[1];
            r.r2 = c[2];
            r.r3 = c[3];
            r.r4 = c[4];
        }
    }

    /** Bounded steals ({@code stealAtOrAbove}) and conditional ones ({@code stealIf}) racing the owner's pop. */
    @JCStressTest
    @Description("stealAtOrAbove and stealIf vs owner pop: nothing below the floor, stealIf only what its test accepts, each element taken once")
    @Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "each taken once; the bounded steals took nothing below the floor; stealIf took element 1 and nothing else")
    @Outcome(expect = Expect.FORBIDDEN, desc = "r1: elements lost or duplicated; r2: a bounded steal took element 1, or stealIf took what its test rejects or missed the base")
    @State
    public static class FloorStealVersusPop {
        final SplitDeque<Integer> d = new SplitDeque<>(2);
        final int floor;
        Integer byOwner, bounded1, rejected, conditional, bounded2;

        public FloorStealVersusPop() {
            d.push(1);
            floor = d.topIndex();
            d.push(2);
            d.push(3);
            while (d.privateSize() > 0 && d.share() > 0) {
                // share all three
            }
        }

        @Actor
        public void owner() {
            byOwner = d.pop();
        }

        @Actor
        public void thief() {
            bounded1 = d.stealAtOrAbove(floor);
            rejected = d.stealIf(x -> x != 1);          // the base is 1 until this thread takes it
            conditional = d.stealIf(x -> x == 1);
            bounded2 = d.stealAtOrAbove(floor);
        }

        @Arbiter
        public void check(II_Result r) {
            int[] c = tally(d, 3, byOwner, bounded1, rejected, conditional, bounded2);
            r.r1 = (c[1] == 1 && c[2] == 1 && c[3] == 1) ? 0 : 1;
            boolean boundedTookOne = Integer.valueOf(1).equals(bounded1) || Integer.valueOf(1).equals(bounded2);
            r.r2 = (boundedTookOne || rejected != null || !Integer.valueOf(1).equals(conditional)) ? 1 : 0;
        }
    }
}
