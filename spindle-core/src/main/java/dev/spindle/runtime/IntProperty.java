package dev.spindle.runtime;

/**
 * A tuning knob given as a system property holding a non-negative integer, such as
 * {@code -Dspindle.future.keep=1} or {@code -Dspindle.directive.depth=3}. A value that is not one
 * fails the class that reads it, naming the property and the value, instead of being ignored.
 */
public final class IntProperty {
    private IntProperty() {
    }

    /**
     * Reads a non-negative integer system property.
     *
     * @param name   the property
     * @param absent what to return when the property is not set or blank
     * @return the value, or {@code absent}
     * @throws IllegalStateException if the property is set to something other than a non-negative integer
     */
    public static int nonNegative(String name, int absent) {
        return parseNonNegative(name, System.getProperty(name), absent);
    }

    static int parseNonNegative(String name, String value, int absent) {
        if (value == null || value.isBlank()) {
            return absent;
        }
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("-D" + name + "=" + value + " is not an integer; expected 0 or more", e);
        }
        if (n < 0) {
            throw new IllegalStateException("-D" + name + "=" + value + " is negative; expected 0 or more");
        }
        return n;
    }
}
