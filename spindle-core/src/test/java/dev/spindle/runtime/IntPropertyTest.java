package dev.spindle.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntPropertyTest {

    @Test
    void anAbsentOrBlankPropertyGivesTheDefault() {
        assertEquals(-1, IntProperty.parseNonNegative("spindle.future.keep", null, -1));
        assertEquals(3, IntProperty.parseNonNegative("spindle.directive.depth", "  ", 3));
    }

    @Test
    void aNonNegativeIntegerIsTaken() {
        assertEquals(0, IntProperty.parseNonNegative("spindle.future.keep", "0", -1));
        assertEquals(2, IntProperty.parseNonNegative("spindle.future.keep", " 2 ", -1));
    }

    @Test
    void anythingElseIsRefusedNamingThePropertyAndTheValue() {
        IllegalStateException notInt = assertThrows(IllegalStateException.class,
                () -> IntProperty.parseNonNegative("spindle.future.keep", "two", -1));
        assertTrue(notInt.getMessage().contains("-Dspindle.future.keep=two"), notInt.getMessage());
        IllegalStateException negative = assertThrows(IllegalStateException.class,
                () -> IntProperty.parseNonNegative("spindle.directive.depth", "-3", -1));
        assertTrue(negative.getMessage().contains("-Dspindle.directive.depth=-3"), negative.getMessage());
    }
}
