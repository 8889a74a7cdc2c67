package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The machine ceiling: a ratio in (0, about P], and bad arguments named. */
class MachineCeilingTest {
    @Test
    void twoThreadsGiveARatioBetweenZeroAndAboutTwo() {
        double c = MachineCeiling.measure(2, 2);
        assertTrue(c > 0 && c < 2.6, "ceiling for 2 threads: " + c);
    }

    @Test
    void badArgumentsAreNamed() {
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> MachineCeiling.measure(1, 5));
        assertTrue(one.getMessage().contains("not 1"), one.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> MachineCeiling.measure(2, 0));
        assertTrue(zero.getMessage().contains("not 0.0 ms"), zero.getMessage());
    }
}
