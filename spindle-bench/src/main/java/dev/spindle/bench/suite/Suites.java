package dev.spindle.bench.suite;

import dev.spindle.bench.fj.FjSuite;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry of suites known to the runner. */
public final class Suites {
    private static final Map<String, Suite> SUITES = new LinkedHashMap<>();

    static {
        register(FjSuite.create());
        register(dev.spindle.bench.futures.FuturesSuite.create());
        register(dev.spindle.bench.loops.LoopsSuite.create());
        register(dev.spindle.bench.futures.DirectiveSuite.create());
    }

    private Suites() {
    }

    private static void register(Suite s) {
        SUITES.put(s.name(), s);
    }

    /** @return all suite names */
    public static List<String> names() {
        return new ArrayList<>(SUITES.keySet());
    }

    /**
     * Looks a suite up.
     *
     * @param name its name
     * @return the suite
     * @throws IllegalArgumentException naming the unknown suite and the known ones
     */
    public static Suite get(String name) {
        Suite s = SUITES.get(name.trim());
        if (s == null) {
            throw new IllegalArgumentException("unknown suite '" + name + "'; known suites: " + String.join(", ", names()));
        }
        return s;
    }
}
