package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Variant;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A timed run that the slow-phase guard throws away still moved the scheduler's counters; a row's
 * counters are per run over every run they saw, so a retake does not inflate them (a Raytracer row
 * read 79.9 bytes per future in the fork with one retake, 95.9 in the others: forty-seventh session).
 */
class RetakenRunCountersTest {
    /** Futures each run counts. */
    private static final long PER_RUN = 1000;

    /** A benchmark whose variant's counter grows by PER_RUN each run. */
    private static final class Counting implements Benchmark<Integer, Integer> {
        final AtomicLong futures = new AtomicLong();

        @Override
        public String name() {
            return "Counting";
        }

        @Override
        public Integer prepare(Size size) {
            return 1;
        }

        @Override
        public List<Variant<Integer, Integer>> variants() {
            return List.of(Variant.of("seq", false, false, workers -> new Variant.Instance<>() {
                @Override
                public Integer run(Integer in) {
                    futures.addAndGet(PER_RUN);
                    return in;
                }

                @Override
                public Map<String, Long> counters() {
                    return Map.of("futures", futures.get());
                }
            }));
        }

        @Override
        public String mismatch(Integer expected, Integer actual) {
            return expected.equals(actual) ? null : "expected " + expected + ", got " + actual;
        }

        @Override
        public String describe(Size size) {
            return "counts " + PER_RUN + " futures a run";
        }
    }

    @Test
    void countersArePerRunWhenTheGuardTakesRunsAgain() {
        Counting b = new Counting();
        Suite suite = new Suite("counting", "test", List.of(b));
        int runs = 4;
        // Probes: 5 baseline samples at 1.0 ms, then a pair around each timed run; the second and
        // third timed runs have a 2.0-ms probe after them (a slow phase: taken again), the rest 1.0.
        // (Retakes of the first timed run would go unseen: the counters' snapshot is taken again.)
        double[] script = {1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2};
        int[] next = {0};
        Runner runner = new Runner(Size.SMALL, new int[]{1}, runs, new Warmup(2, 0L, 2),
                Progress.child(new PrintStream(OutputStream.nullOutputStream())), null, false)
                .guardSlowPhases(() -> new SlowPhaseGuard(() -> next[0] < script.length ? script[next[0]++] : 1.0));
        Measurement m = runner.measure(suite, b, b.variant("seq"), 1, b.prepare(Size.SMALL), new Object[1]);

        assertNull(m.error(), "the row ran");
        assertEquals(2.0, m.counters().get("cpu_slow_retakes"), "two timed runs taken again");
        assertEquals(runs, m.timesMs().length, "kept runs");
        assertEquals((double) PER_RUN, m.counters().get("futures"),
                "futures per run, the retaken runs' counts averaged over the runs that made them");
    }
}
