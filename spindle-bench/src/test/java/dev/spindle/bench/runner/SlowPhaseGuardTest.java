package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

    @Test
    void aJvmBornInASlowPhaseIsSlowAgainstTheSuitesCalmReference() {
        double[] probes = {2.0, 2.05, 2.1, 1.98, 2.02, 2.0};  // the whole JVM's life in a phase: ~2 ms
        int[] next = {0};
        SlowPhaseGuard alone = new SlowPhaseGuard(() -> probes[next[0]++ % probes.length]);
        alone.sampleAround();
        assertFalse(alone.retake(2.0, 2.1), "alone, the guard takes its slow speed for calm");

        next[0] = 0;
        SlowPhaseGuard given = new SlowPhaseGuard(() -> probes[next[0]++ % probes.length]).knownCalm(1.5);
        given.sampleAround();
        assertEquals(SlowPhaseGuard.BASELINE + 1, next[0], "the baseline is taken though a reference was given");
        assertEquals(1.98, given.fastestMs(), "the row still reports the fastest its own JVM saw");
        assertEquals(1.5, given.calmMs());
        assertTrue(given.retake(2.0, 2.1), "more than 1.25x the suite's calm 1.5 ms");
        assertFalse(given.retake(1.6, 1.55), "calm against the reference");
        given.observe(1.2);
        assertEquals(1.2, given.calmMs(), "a faster probe of its own lowers the line below the reference");
        assertEquals(Double.MAX_VALUE, new SlowPhaseGuard().knownCalm(Double.NaN).calmMs(),
                "NaN gives no reference: nothing seen, nothing given");
    }

    @Test
    void aReferenceThatIsNoTimeIsRejectedNamingIt() {
        for (double bad : new double[]{0, -1.5, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SlowPhaseGuard().knownCalm(bad));
            assertTrue(e.getMessage().contains(Double.toString(bad)), e.getMessage());
        }
    }
}
