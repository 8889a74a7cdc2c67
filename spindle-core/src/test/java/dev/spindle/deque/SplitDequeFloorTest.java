package dev.spindle.deque;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link SplitDeque#stealAtOrAbove}: a thief takes only elements pushed at or after a floor; and
 * {@link SplitDeque#stealIf}, which removes a dead element that such a floor cannot get past.
 */
class SplitDequeFloorTest {

    @Test
    void stealsOnlyAtOrAboveTheFloor() {
        SplitDeque<Integer> d = new SplitDeque<>(4);
        d.push(0);
        d.push(1);
        int floor = d.topIndex();
        d.push(2);
        d.push(3);
        while (d.privateSize() > 0 && d.share() > 0) {
            // share everything
        }
        assertNull(d.stealAtOrAbove(floor), "the oldest shared element is below the floor");
        assertEquals(0, d.steal());
        assertEquals(1, d.steal());
        assertEquals(2, d.stealAtOrAbove(floor));
        assertEquals(3, d.stealAtOrAbove(floor));
        assertNull(d.stealAtOrAbove(floor));
    }

    @Test
    void floorSurvivesRingGrowth() {
        SplitDeque<Integer> d = new SplitDeque<>(2);
        for (int i = 0; i < 100; i++) {          // indices move on; the floor is not 0
            d.push(i);
            assertEquals(i, d.pop());
        }
        int floor = d.topIndex();
        for (int i = 0; i < 40; i++) {           // grows the ring several times
            d.push(i);
        }
        while (d.privateSize() > 0 && d.share() > 0) {
            // share everything
        }
        int n = 0;
        for (Integer e; (e = d.stealAtOrAbove(floor)) != null; n++) {
            assertEquals(n, e);
        }
        assertEquals(40, n, "every element at or above the floor is taken, in order, once");
        assertNull(d.pop());
    }

    @Test
    void stealIfTakesTheOldestSharedElementOnlyWhenTheTestAcceptsIt() {
        SplitDeque<String> d = new SplitDeque<>(4);
        assertNull(d.stealIf(e -> true), "empty deque");
        d.push("dead");
        int floor = d.topIndex();
        d.push("live");
        assertNull(d.stealIf(e -> true), "nothing shared yet");
        while (d.privateSize() > 0 && d.share() > 0) {
            // share both
        }
        assertNull(d.stealAtOrAbove(floor), "the dead element below the floor hides the live one");
        assertNull(d.stealIf(e -> e.equals("live")), "the test sees only the oldest element");
        assertEquals("dead", d.stealIf(e -> e.equals("dead")));
        assertEquals("live", d.stealAtOrAbove(floor), "with the dead element gone the floor steal succeeds");
        assertNull(d.pop());
    }
}
