package dev.spindle.bench.suite;

import java.util.Locale;

/** Problem size of a benchmark run. */
public enum Size {
    /** Seconds for the whole suite: the smoke test in the test run. */
    SMALL,
    /** The sizes the issues and papers name (about 10^7 elements, n = 40, 1024² matrices). */
    DEFAULT,
    /** Larger than the papers' sizes where memory allows. */
    LARGE;

    /**
     * Parses small|default|large.
     *
     * @param s the name
     * @return the size
     * @throws IllegalArgumentException naming the bad value
     */
    public static Size parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("size must be small, default or large, was '" + s + "'");
        }
    }

    /** @return the lower-case name */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Picks one of three values by size.
     *
     * @param small   for SMALL
     * @param normal  for DEFAULT
     * @param large   for LARGE
     * @return the chosen value
     */
    public int pick(int small, int normal, int large) {
        return switch (this) {
            case SMALL -> small;
            case DEFAULT -> normal;
            case LARGE -> large;
        };
    }
}
