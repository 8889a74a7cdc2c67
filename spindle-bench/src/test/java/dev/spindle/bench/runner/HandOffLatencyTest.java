package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-off latency: a positive figure, taken within its time budget, with no thread left behind. */
class HandOffLatencyTest {
    @Test
    void aRoundTripTakesAPositiveTimeAndTheEchoThreadEnds() {
        long t0 = System.nanoTime();
        double ns = HandOffLatency.measureNanos();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ns > 0 && ns < 200_000_000, "round trip: " + ns + " ns");
        assertTrue(ms < 5_000, "three trials of at most 200 ms each took " + ms + " ms");
        boolean echoLeft = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("spindle-hand-off-echo") && t.isAlive());
        assertFalse(echoLeft, "an echo thread outlived its measurement");
    }
}
