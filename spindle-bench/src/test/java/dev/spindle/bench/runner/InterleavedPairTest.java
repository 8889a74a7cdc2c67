package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Two variants alternated in one JVM: the report tells slow runs of both from slow runs of one. */
class InterleavedPairTest {

    @Test
    void theReportCountsSlowRoundsForBothAndForEachAlone() {
        // 3 warm-up rounds, then 6: round 3 slow for both, round 4 for a only, round 6 for b only
        double[] a = {90, 90, 90, 20, 20, 10, 10, 10, 10};
        double[] b = {90, 90, 90, 20, 10, 10, 20, 10, 10};
        String out = InterleavedPair.report("a", "b", a, b);
        assertTrue(out.contains("a median 10.00 ms over the last 6 rounds; slow runs: 20.0 20.0"), out);
        assertTrue(out.contains("b median 10.00 ms over the last 6 rounds; slow runs: 20.0 20.0"), out);
        assertTrue(out.contains("a / b = 1.000; rounds slow (> 1.08 x median) for both 1, for a only 1, for b only 1, of 6"), out);
    }

    @Test
    void theFirstOfEachPairAlternatesAndEveryResultIsChecked() throws Exception {
        RecordedBenchmark r = new RecordedBenchmark();
        String out = InterleavedPair.run(r, "a", "b", 2, 4);
        assertEquals(List.of("a", "b", "b", "a", "a", "b", "b", "a"), r.order);
        assertTrue(out.contains("a / b = "), out);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> InterleavedPair.run(new RecordedBenchmark(), "a", "wrong", 2, 3));
        assertEquals("wrong round 0: expected 7, got 8", e.getMessage());
    }

    @Test
    void badArgumentsNameWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InterleavedPair.run(new RecordedBenchmark(), "a", "nope", 2, 3));
        assertEquals("Recorded has no variant 'nope'; it has [seq, a, b, wrong, drifting]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> InterleavedPair.main(new String[]{"directive"}));
        assertTrue(e.getMessage().startsWith("usage: InterleavedPair SUITE BENCHMARK VARIANT_A VARIANT_B WORKERS ROUNDS"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> InterleavedPair.main(new String[]{"directive", "Fib", "seq", "spindle-directive", "two", "9"}));
        assertEquals("WORKERS must be a positive integer, not 'two'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> InterleavedPair.main(new String[]{"directive", "Fib", "seq", "spindle-directive", "2", "2"}));
        assertEquals("ROUNDS must be at least 3 (the first third warms up), not 2", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> InterleavedPair.main(new String[]{"directive", "Nope", "seq", "spindle-directive", "2", "9"}));
        assertEquals("suite directive has no benchmark 'Nope'", e.getMessage());
    }
}
