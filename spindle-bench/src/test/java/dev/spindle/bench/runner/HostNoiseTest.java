package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chain alternated with a variant's runs: one pair per round, each result checked, bad arguments named. */
class HostNoiseTest {

    @Test
    void everyRoundTimesTheChainThenOneRun() throws Exception {
        String out = HostNoise.run(new RecordedBenchmark(), "seq", 1, 6, 1000);
        String series = out.lines().findFirst().orElseThrow();
        assertTrue(series.startsWith("round ms (chain / seq): "), out);
        assertEquals(6, series.substring(series.indexOf(':') + 1).trim().split(" ").length, out);
        assertTrue(out.contains("chain: min "), out);
        assertTrue(out.contains("seq: min ") && out.contains("over the last 4 rounds"), out);
    }

    @Test
    void aResultUnlikeTheFirstFailsNamingTheRound() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HostNoise.run(new RecordedBenchmark(), "drifting", 1, 3, 1000));
        assertEquals("drifting round 1: expected 7, got 8", e.getMessage());
    }

    @Test
    void badArgumentsNameWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostNoise.main(new String[]{"futures"}));
        assertTrue(e.getMessage().startsWith("usage: HostNoise SUITE BENCHMARK VARIANT WORKERS ROUNDS"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HostNoise.main(new String[]{"futures", "Knapsack", "seq", "1", "2"}));
        assertEquals("ROUNDS must be at least 3 (the first third warms up), not 2", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HostNoise.main(new String[]{"futures", "Nope", "seq", "1", "5"}));
        assertEquals("suite futures has no benchmark 'Nope'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HostNoise.main(new String[]{"futures", "Knapsack", "seq", "x", "5"}));
        assertEquals("WORKERS must be a positive integer, not 'x'", e.getMessage());
    }
}
