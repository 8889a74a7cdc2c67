package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rule that takes a timed run again when the one CPU of its JVM probed slow around it. */
class SlowPhaseGuardTest {

    @Test
    void aRunIsTakenAgainWhenEitherProbeIsSlowAgainstTheFastestSeen() {
        SlowPhaseGuard g = new SlowPhaseGuard();
        g.observe(1.40);
        g.observe(1.36);                                     // the calm speed: 1.36 ms
        assertFalse(g.retake(1.38, 1.45), "probes within 1.25x of 1.36 ms");
        assertTrue(g.retake(1.37, 2.30), "slow after the run");
        assertTrue(g.retake(2.30, 1.37), "slow before the run");
        assertFalse(g.retake(1.36 * SlowPhaseGuard.SLOW, 1.36), "exactly at the line is not slow");
        assertEquals(2, g.retakes());
        assertEquals(0, g.slowRunsCounted(), "every slow run was taken again");
    }

    @Test
    void atMostMaxRetakesThenRunsCountWhateverTheProbesSay() {
        SlowPhaseGuard g = new SlowPhaseGuard();
        g.observe(1.0);
        for (int i = 0; i < SlowPhaseGuard.MAX_RETAKES; i++) {
            assertTrue(g.retake(2.0, 2.0), "retake " + (i + 1));
        }
        assertFalse(g.retake(2.0, 2.0), "the " + (SlowPhaseGuard.MAX_RETAKES + 1) + "th slow run counts");
        assertEquals(SlowPhaseGuard.MAX_RETAKES, g.retakes());
        assertEquals(1, g.slowRunsCounted(), "the slow run counted with the retakes spent: the fork is measured again");
    }

    @Test
    void aRealProbeTakesMillisecondsAndTheFirstTimedRunGetsABaseline() {
        SlowPhaseGuard g = new SlowPhaseGuard();
        double ms = g.sampleAround();
        assertTrue(ms > 0 && ms < 5_000, "probe took " + ms + " ms");
        assertTrue(g.fastestMs() <= ms, "the baseline's samples count: fastest " + g.fastestMs() + ", last " + ms);
        assertTrue(Double.isNaN(g.countedMedianMs()), "no run counted yet");
        assertFalse(g.retake(g.fastestMs(), g.fastestMs()));
        assertEquals(g.fastestMs(), g.countedMedianMs(), "the counted run's probes");
    }
}
