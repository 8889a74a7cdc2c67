package dev.spindle.bench.loops;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Suite;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every Stress row asks for enough warm-up runs to pass the same number of parallel loops, and
 * keeps asking when the suite is narrowed to some benchmarks and variants (the runner's
 * {@code --bench} and {@code --variant} wrap the programs).
 */
class StressWarmupTest {
    @Test
    void everyRowWarmsUpPastTheSameNumberOfLoops() {
        for (int loops : new int[]{40, 64, 128, 256}) {
            int runs = new Stress(loops).warmupRuns();
            assertTrue((long) runs * loops >= Stress.WARMUP_LOOPS && (long) (runs - 1) * loops < Stress.WARMUP_LOOPS,
                    "Stress-" + loops + " asks for " + runs + " runs");
        }
    }

    @Test
    void aNarrowedSuiteKeepsTheProgramsWarmUp() {
        Suite narrowed = LoopsSuite.create().only(List.of("Stress-40", "Skewed-linear"), List.of("spindle-static"));
        for (Benchmark<?, ?> b : narrowed.benchmarks()) {
            int expected = b.name().equals("Stress-40") ? new Stress(40).warmupRuns() : 0;
            assertEquals(expected, b.warmupRuns(), b.name());
        }
        assertEquals(2, narrowed.benchmarks().size());
    }
}
