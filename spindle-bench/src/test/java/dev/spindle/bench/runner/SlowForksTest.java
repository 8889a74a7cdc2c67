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

    /** One JVM's row whose guard's fastest probe took {@code fastestMs}, no slow runs counted. */
    private static Measurement probed(String variant, int workers, double ms, double fastestMs) {
        Measurement m = row(variant, workers, ms, 0);
        m.counters().put(CalmProbeReference.FASTEST, fastestMs);
        return m;
    }

    private static Measurement wrong(String variant, int workers) {
        return new Measurement("test", "Recorded", "test", variant, workers, "small", 3, 1, 1, 1, false,
                "expected 7, got 8", new java.util.LinkedHashMap<>(), null, false, new double[]{1, 1, 1}, 1);
    }

    /** Records one launch of a scripted fork of {@code variant} ("a#2") and returns its number, from 1. */
    private static int launch(List<String> launched, String variant) {
        int n = (int) launched.stream().filter(x -> x.startsWith(variant + "#")).count() + 1;
        launched.add(variant + "#" + n);
        return n;
    }

    @Test
    void aForkIsMeasuredAgainOnlyIfSomeRowCountedSlowRuns() {
        assertFalse(SlowForks.needsAgain(List.of(row("a", 1, 10, 0), row("a", 2, 6, 0)), Double.NaN));
        assertTrue(SlowForks.needsAgain(List.of(row("a", 1, 10, 0), row("a", 2, 6, 2)), Double.NaN));
        Measurement noGuard = new Measurement("test", "Recorded", "test", "a", 2, "small", 3, 6, 6, 6, true, null,
                Map.of(), null, false, new double[]{6, 6, 6}, 1);
        assertFalse(SlowForks.needsAgain(List.of(noGuard), Double.NaN), "a row without a guard never counts slow runs");
    }

    @Test
    void onlyTheSlowRowIsReplacedAndOnlyByACalmOne() {
        List<Measurement> first = List.of(row("a", 1, 10, 0), row("a", 2, 9, 3));
        SlowForks.Kept calmAgain = SlowForks.keep(first, List.of(row("a", 1, 11, 0), row("a", 2, 6, 0)), Double.NaN);
        assertSame(first.get(0), calmAgain.fork().get(0), "the calm one-worker row stays as first measured");
        assertEquals(6, calmAgain.fork().get(1).medianMs(), "the slow two-worker row is the new one");
        assertArrayEquals(new boolean[]{false, true}, calmAgain.replaced());

        SlowForks.Kept slowAgain = SlowForks.keep(first, List.of(row("a", 1, 11, 0), row("a", 2, 5, 1)), Double.NaN);
        assertEquals(first, slowAgain.fork(), "the new row counted slow runs too: whatever its time, the first stays");
        assertArrayEquals(new boolean[]{false, false}, slowAgain.replaced());
    }

    @Test
    void aFailureInTheNewForkIsNeverDroppedAndAToleratedErrorTakesNothing() {
        List<Measurement> first = List.of(row("a", 1, 10, 0), row("a", 2, 9, 3));
        SlowForks.Kept failed = SlowForks.keep(first, List.of(row("a", 1, 10, 0), wrong("a", 2)), Double.NaN);
        assertTrue(failed.fork().get(1).fails(), "a wrong answer in the new JVM reaches the report");
        assertArrayEquals(new boolean[]{true, true}, failed.replaced());

        Measurement timedOut = new Measurement("test", "Recorded", "test", "a", 0, "small", 0, Double.NaN, Double.NaN,
                Double.NaN, false, null, Map.of(), "timed out", true, new double[0], 1);
        SlowForks.Kept tolerated = SlowForks.keep(first, List.of(timedOut), Double.NaN);
        assertEquals(first, tolerated.fork());
    }

    @Test
    void theCalmReferenceIsTheSecondLeastOfTheJvmsFastestProbes() {
        CalmProbeReference ref = new CalmProbeReference();
        ref.record(List.of(probed("a", 1, 10, 1.2)));
        assertTrue(Double.isNaN(ref.ms()), "one JVM's probe is not yet a reference");
        ref.record(List.of(row("seq", 1, 10, 0)));            // no guard probed: nothing recorded
        ref.record(List.of(wrong("a", 1)));
        assertTrue(Double.isNaN(ref.ms()));
        ref.record(List.of(probed("a", 1, 10, 2.0), probed("a", 2, 6, 1.6)));  // a JVM's least: 1.6
        assertEquals(1.6, ref.ms(), "two JVMs: the slower of their fastest, so that one odd probe cannot set it");
        ref.record(List.of(probed("a", 1, 10, 1.5)));
        assertEquals(1.5, ref.ms());
        ref.record(List.of(probed("a", 1, 10, 0.4)));
        assertEquals(1.2, ref.ms(), "the second least");

        assertTrue(CalmProbeReference.bornSlow(1.9, 1.5), "1.9 > 1.25 x 1.5");
        assertFalse(CalmProbeReference.bornSlow(1.5 * SlowPhaseGuard.SLOW, 1.5), "at the line is not slow");
        assertFalse(CalmProbeReference.bornSlow(1.9, Double.NaN), "no reference: nothing born slow");
        assertFalse(CalmProbeReference.bornSlow(Double.NaN, 1.5), "no probe: nothing born slow");
    }

    @Test
    void aRowBornSlowIsMeasuredAgainAndReplacedOnlyByOneThatIsNot() {
        List<Measurement> first = List.of(probed("a", 1, 15, 2.0), probed("a", 2, 6, 1.55));
        assertFalse(SlowForks.needsAgain(first, Double.NaN), "without a reference no JVM is born slow");
        assertTrue(SlowForks.needsAgain(first, 1.5));
        assertTrue(SlowForks.bornSlow(first.get(0), 1.5));
        assertFalse(SlowForks.slow(first.get(1), 1.5));

        SlowForks.Kept calm = SlowForks.keep(first, List.of(probed("a", 1, 10, 1.52), probed("a", 2, 5, 1.5)), 1.5);
        assertEquals(10, calm.fork().get(0).medianMs(), "the row born slow is the new one");
        assertSame(first.get(1), calm.fork().get(1), "the calm two-worker row stays as first measured");
        assertArrayEquals(new boolean[]{true, false}, calm.replaced());

        SlowForks.Kept slowAgain = SlowForks.keep(first, List.of(probed("a", 1, 9, 2.1), probed("a", 2, 5, 1.5)), 1.5);
        assertEquals(first, slowAgain.fork(), "the new JVM was born slow too: the first stays, whatever its time");
    }

    /**
     * The runner with scripted forks: variant "a"'s first JVM lives in a phase that slows both
     * vCPUs — its guards counted nothing, but its fastest probe is 2.0 ms where every other JVM's is
     * ~1.5 — and is launched before the suite has a reference. It is measured again at the end,
     * and each fork is launched with the reference its earlier forks give.
     */
    @Test
    void theRunnerMeasuresAForkBornSlowAgainAndGivesEachForkTheReference() throws Exception {
        List<String> launched = new ArrayList<>();
        List<Double> given = new ArrayList<>();
        Runner[] runner = new Runner[1];
        Runner.ForkLauncher scripted = (s, bench, v, ref) -> {
            int n = launch(launched, v.name());
            given.add(runner[0].calmProbeMs());
            if (v.name().equals("seq")) {
                return List.of(probed("seq", 1, 10, 1.5));
            }
            double fastest = n == 1 ? 2.0 : 1.55;
            return List.of(probed("a", 1, n == 1 ? 15 : 10 + n, fastest), probed("a", 2, n == 1 ? 20 : 5 + n, fastest));
        };
        Suite suite = new Suite("test", "test", List.of(new RecordedBenchmark())).only(null, List.of("seq", "a"));
        Report report = new Report("test", "now", 2);
        runner[0] = new Runner(Size.SMALL, new int[]{1, 2}, 3, new Warmup(1, 0L, 1),
                Progress.child(new PrintStream(OutputStream.nullOutputStream())), report, true, 3)
                .launchForksWith(scripted).remeasureSlowForks(true);
        runner[0].run(suite);

        assertEquals(List.of("seq#1", "a#1", "seq#2", "a#2", "seq#3", "a#3", "a#4"), launched,
                "the fork born slow measured again once, after the last round");
        assertTrue(Double.isNaN(given.get(0)) && Double.isNaN(given.get(1)), "no reference before two JVMs reported");
        assertEquals(List.of(2.0, 1.5, 1.5, 1.5, 1.5), given.subList(2, 7),
                "each later fork gets the second least of its earlier forks' fastest probes");
        Measurement p1 = report.rows().stream().filter(m -> m.variant().equals("a") && m.workers() == 1).findFirst().orElseThrow();
        assertArrayEquals(new double[]{14, 12, 13}, p1.forkMediansMs(), "fork 1's row is fork 4's");
        assertEquals(1.0, p1.counters().get(SlowForks.REPLACED));
        Measurement p2 = report.rows().stream().filter(m -> m.variant().equals("a") && m.workers() == 2).findFirst().orElseThrow();
        assertArrayEquals(new double[]{9, 7, 8}, p2.forkMediansMs(), "both rows of the JVM were born slow");
    }

    /**
     * The runner with scripted forks: the remeasure pass judges every fork against the reference as
     * the pass began. seq's first two forks counted slow runs and are measured again first; their
     * new JVMs see a faster probe (1.6 ms) than the suite's reference (2.0), which would move it to
     * 1.6. Variant "a"'s third fork (fastest probe 2.4 ms) is not born slow against 2.0, so it is
     * not measured again, though it would be against 1.6.
     */
    @Test
    void theRemeasurePassJudgesAgainstTheReferenceAsItBegan() throws Exception {
        List<String> launched = new ArrayList<>();
        Runner.ForkLauncher scripted = (s, bench, v, ref) -> {
            int n = launch(launched, v.name());
            if (v.name().equals("seq")) {
                Measurement m = probed("seq", 1, 10, n <= 3 ? 2.0 : 1.6);
                m.counters().put(SlowForks.COUNTER, n <= 2 ? 1.0 : 0.0);
                return List.of(m);
            }
            double fastest = n == 3 ? 2.4 : 2.0;
            return List.of(probed("a", 1, 10 + n, fastest), probed("a", 2, 5 + n, fastest));
        };
        runScripted(3, scripted, true);
        assertEquals(List.of("seq#1", "a#1", "seq#2", "a#2", "seq#3", "a#3", "seq#4", "seq#5"), launched,
                "seq's slow forks measured again; a's third fork, calm against the pass's reference, not");
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
            int n = launch(launched, v.name());
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
