package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Forks whose guards counted runs in a slow phase are measured again at the end of the suite ({@link SlowForks}). */
class SlowForksTest {

    /** One JVM's row: three runs of {@code ms}, and {@code slowCounted} runs counted in a slow phase. */
    private static Measurement row(String variant, int workers, double ms, int slowCounted) {
        return new Measurement("test", "Recorded", "test", variant, workers, "small", 3, ms, ms, ms, true, null,
                new java.util.LinkedHashMap<>(Map.of("cpu_slow_retakes", 10.0, SlowForks.COUNTER, (double) slowCounted)),
                null, false, new double[]{ms, ms, ms}, 1);
    }

    private static Measurement wrong(String variant, int workers) {
        return new Measurement("test", "Recorded", "test", variant, workers, "small", 3, 1, 1, 1, false,
                "expected 7, got 8", new java.util.LinkedHashMap<>(), null, false, new double[]{1, 1, 1}, 1);
    }

    @Test
    void aForkIsMeasuredAgainOnlyIfSomeRowCountedSlowRuns() {
        assertFalse(SlowForks.needsAgain(List.of(row("a", 1, 10, 0), row("a", 2, 6, 0))));
        assertTrue(SlowForks.needsAgain(List.of(row("a", 1, 10, 0), row("a", 2, 6, 2))));
        Measurement noGuard = new Measurement("test", "Recorded", "test", "a", 2, "small", 3, 6, 6, 6, true, null,
                Map.of(), null, false, new double[]{6, 6, 6}, 1);
        assertFalse(SlowForks.needsAgain(List.of(noGuard)), "a row without a guard never counts slow runs");
    }

    @Test
    void onlyTheSlowRowIsReplacedAndOnlyByACalmOne() {
        List<Measurement> first = List.of(row("a", 1, 10, 0), row("a", 2, 9, 3));
        SlowForks.Kept calmAgain = SlowForks.keep(first, List.of(row("a", 1, 11, 0), row("a", 2, 6, 0)));
        assertSame(first.get(0), calmAgain.fork().get(0), "the calm one-worker row stays as first measured");
        assertEquals(6, calmAgain.fork().get(1).medianMs(), "the slow two-worker row is the new one");
        assertArrayEquals(new boolean[]{false, true}, calmAgain.replaced());

        SlowForks.Kept slowAgain = SlowForks.keep(first, List.of(row("a", 1, 11, 0), row("a", 2, 5, 1)));
        assertEquals(first, slowAgain.fork(), "the new row counted slow runs too: whatever its time, the first stays");
        assertArrayEquals(new boolean[]{false, false}, slowAgain.replaced());
    }

    @Test
    void aFailureInTheNewForkIsNeverDroppedAndAToleratedErrorTakesNothing() {
        List<Measurement> first = List.of(row("a", 1, 10, 0), row("a", 2, 9, 3));
        SlowForks.Kept failed = SlowForks.keep(first, List.of(row("a", 1, 10, 0), wrong("a", 2)));
        assertTrue(failed.fork().get(1).fails(), "a wrong answer in the new JVM reaches the report");
        assertArrayEquals(new boolean[]{true, true}, failed.replaced());

        Measurement timedOut = new Measurement("test", "Recorded", "test", "a", 0, "small", 0, Double.NaN, Double.NaN,
                Double.NaN, false, null, Map.of(), "timed out", true, new double[0], 1);
        SlowForks.Kept tolerated = SlowForks.keep(first, List.of(timedOut));
        assertEquals(first, tolerated.fork());
    }

    /**
     * Runs a suite of {@link RecordedBenchmark}'s "seq" and "a" at one and two workers, each fork
     * from {@code launcher}.
     */
    private static Report runScripted(int forks, Runner.ForkLauncher launcher, boolean remeasure) throws Exception {
        Suite suite = new Suite("test", "test", List.of(new RecordedBenchmark())).only(null, List.of("seq", "a"));
        Report report = new Report("test", "now", 2);
        new Runner(Size.SMALL, new int[]{1, 2}, 3, new Warmup(1, 0L, 1),
                Progress.child(new PrintStream(OutputStream.nullOutputStream())), report, true, forks)
                .launchForksWith(launcher).remeasureSlowForks(remeasure).run(suite);
        return report;
    }

    /**
     * The runner with scripted forks: variant "a"'s second fork counts slow runs at two workers; it
     * is measured again after every fork round, once, and its new two-worker row replaces the old.
     */
    @Test
    void theRunnerMeasuresASlowForkAgainAfterEveryRoundAndReportsIt() throws Exception {
        List<String> launched = new ArrayList<>();
        Runner.ForkLauncher scripted = (s, bench, v, ref) -> {
            int n = (int) launched.stream().filter(x -> x.startsWith(v.name() + "#")).count() + 1;
            launched.add(v.name() + "#" + n);
            if (v.name().equals("seq")) {
                return List.of(row("seq", 1, 10, 0));
            }
            boolean slow = n == 2;                         // a's second fork counted slow runs at P=2
            return List.of(row("a", 1, 10 + n, 0), row("a", 2, slow ? 9 : 5 + n, slow ? 4 : 0));
        };
        Report report = runScripted(3, scripted, true);

        assertEquals(List.of("seq#1", "a#1", "seq#2", "a#2", "seq#3", "a#3", "a#4"), launched,
                "the slow fork measured again once, after the last round");
        Measurement p2 = report.rows().stream().filter(m -> m.variant().equals("a") && m.workers() == 2).findFirst().orElseThrow();
        assertArrayEquals(new double[]{6, 9, 8}, p2.forkMediansMs(), "fork 2's row is fork 4's, no longer the slow one");
        assertEquals(1.0, p2.counters().get(SlowForks.REMEASURED));
        assertEquals(1.0, p2.counters().get(SlowForks.REPLACED));
        assertEquals(0.0, p2.counters().get(SlowForks.COUNTER), "no slow runs left among the row's forks");
        Measurement p1 = report.rows().stream().filter(m -> m.variant().equals("a") && m.workers() == 1).findFirst().orElseThrow();
        assertArrayEquals(new double[]{11, 12, 13}, p1.forkMediansMs(), "the calm one-worker row stays");
        assertEquals(0.0, p1.counters().get(SlowForks.REPLACED));
        Measurement seq = report.rows().stream().filter(m -> m.variant().equals("seq")).findFirst().orElseThrow();
        assertNull(seq.counters().get(SlowForks.REMEASURED), "nothing measured again for seq");
    }

    @Test
    void withoutTheOptionNothingIsMeasuredAgain() throws Exception {
        List<String> launched = new ArrayList<>();
        Runner.ForkLauncher scripted = (s, bench, v, ref) -> {
            launched.add(v.name());
            return v.name().equals("seq") ? List.of(row("seq", 1, 10, 0)) : List.of(row("a", 1, 10, 0), row("a", 2, 9, 4));
        };
        Report report = runScripted(2, scripted, false);
        assertEquals(List.of("seq", "a", "seq", "a"), launched);
        assertEquals(4.0, report.rows().stream().filter(m -> m.workers() == 2).findFirst().orElseThrow()
                .counters().get(SlowForks.COUNTER), "the row says its forks counted slow runs");
    }
}
