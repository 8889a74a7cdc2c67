package dev.spindle.future;

import java.util.Locale;

/**
 * Who decides whether a future is exposed to other workers: set with the system property
 * {@code spindle.spawn=always|never|auto} (default {@code auto}), read once, at the first future.
 *
 * <pre>{@code
 * // java -Dspindle.spawn=never ...   runs every future on its creator, at its touch
 * System.out.println(SpawnMode.current());
 * }</pre>
 */
public enum SpawnMode {
    /** Every future is promoted to a task at creation, like a fork (for testing and comparison). */
    ALWAYS,
    /** No future is ever exposed by the runtime's choice: each runs on its creator, at the latest at its touch. */
    NEVER,
    /** The runtime exposes the oldest latent futures when other workers are hungry (the default). */
    AUTO;

    /** The property that selects the mode. */
    public static final String PROPERTY = "spindle.spawn";

    static final SpawnMode MODE = parse(System.getProperty(PROPERTY));

    /**
     * The mode in force.
     *
     * @return the mode
     */
    public static SpawnMode current() {
        return MODE;
    }

    static SpawnMode parse(String value) {
        if (value == null || value.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("system property " + PROPERTY + " must be always, never or auto, was \""
                    + value + "\"");
        }
    }
}
