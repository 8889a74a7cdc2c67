package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Variant;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chain alternated with a variant's runs: one pair per round, each result checked, bad arguments named. */
class HostNoiseTest {

    /** A benchmark whose "wrong" variant answers differently from its first run on. */
    private static final class Small implements Benchmark<Integer, Integer> {
        @Override
        public String name() {
            return "Small";
        }

        @Override
        public Integer prepare(Size size) {
            return 7;
        }

        @Override
        public List<Variant<Integer, Integer>> variants() {
            int[] runs = new int[1];
            return List.of(Variant.of("seq", true, false, workers -> in -> in),
                    Variant.of("wrong", true, false, workers -> in -> in + runs[0]++));
        }

        @Override
        public String mismatch(Integer expected, Integer actual) {
            return expected.equals(actual) ? null : "expected " + expected + ", got " + actual;
        }

        @Override
        public String describe(Size size) {
            return "test";
        }
    }

    @Test
    void everyRoundTimesTheChainThenOneRun() throws Exception {
        String out = HostNoise.run(new Small(), "seq", 1, 6, 1000);
        String series = out.lines().findFirst().orElseThrow();
        assertTrue(series.startsWith("round ms (chain / seq): "), out);
        assertEquals(6, series.substring(series.indexOf(':') + 1).trim().split(" ").length, out);
        assertTrue(out.contains("chain: min "), out);
        assertTrue(out.contains("seq: min ") && out.contains("over the last 4 rounds"), out);
    }

    @Test
    void aResultUnlikeTheFirstFailsNamingTheRound() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HostNoise.run(new Small(), "wrong", 1, 3, 1000));
        assertEquals("wrong round 1: expected 7, got 8", e.getMessage());
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
