package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-off latency: a positive figure, with no thread left behind. */
class HandOffLatencyTest {
    @Test
    void aRoundTripTakesAPositiveTimeAndTheEchoThreadEnds() {
        double ns = HandOffLatency.measureNanos();
        assertTrue(ns > 0 && ns < 200_000_000, "round trip: " + ns + " ns");
        boolean echoLeft = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("spindle-hand-off-echo") && t.isAlive());
        assertFalse(echoLeft, "an echo thread outlived its measurement");
    }
}
