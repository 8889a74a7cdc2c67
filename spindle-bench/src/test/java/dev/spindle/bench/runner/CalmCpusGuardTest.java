package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rule that times a many-worker row's runs while every CPU probes calm ({@link CalmCpusGuard}). */
class CalmCpusGuardTest {

    /** A probe that answers the scripted per-CPU times in order, then {@code last} forever. */
    private static java.util.function.Supplier<double[]> scripted(double[] last, double[]... script) {
        int[] next = {0};
        return () -> next[0] < script.length ? script[next[0]++] : last;
    }

    @Test
    void waitsWhileACpuIsSlowAgainstTheFastestSeenOnAnyCpu() {
        List<Long> slept = new ArrayList<>();
        double[] calm = {1.0, 1.1};
        CalmCpusGuard g = new CalmCpusGuard(scripted(calm),    // baseline, each CPU alone: the calm speed is 1.0 ms
                scripted(calm, new double[]{1.0, 1.6}, new double[]{1.0, 1.6}, new double[]{1.7, 1.0}), slept::add);
        assertEquals(1.1, g.awaitCalm(), "the slowest CPU of the probe it ran on");
        assertEquals(List.of(100L, 100L, 100L), slept, "three slow probes, three waits");
        assertEquals(300, g.waitedMs());
        assertEquals(1.0, g.fastestMs());
    }

    @Test
    void theWaitIsBoundedAndThenTheRunGoesAhead() {
        AtomicInteger sleeps = new AtomicInteger();
        CalmCpusGuard g = new CalmCpusGuard(scripted(new double[]{1.0, 1.0}), scripted(new double[]{1.0, 1.6}),
                ms -> sleeps.incrementAndGet());
        assertEquals(1.6, g.awaitCalm(), "still slow when the budget is spent");
        assertEquals(CalmCpusGuard.WAIT_BUDGET_MS, g.waitedMs());
        assertEquals(CalmCpusGuard.WAIT_BUDGET_MS / CalmCpusGuard.STEP_MS, sleeps.get());
        assertEquals(1.6, g.awaitCalm(), "no budget left: no wait");
        assertEquals(CalmCpusGuard.WAIT_BUDGET_MS / CalmCpusGuard.STEP_MS, sleeps.get());
    }

    @Test
    void aRunWithASlowCpuAroundItIsTakenAgainAtMostMaxRetakesTimes() {
        CalmCpusGuard g = new CalmCpusGuard(scripted(new double[]{1.0, 1.0}), scripted(new double[]{1.0, 1.0}), ms -> { });
        g.awaitCalm();
        assertFalse(g.retake(1.2, 1.25), "within 1.25x of 1.0 ms");
        assertTrue(g.retake(1.0, 1.3), "slow after the run");
        for (int i = 1; i < SlowPhaseGuard.MAX_RETAKES; i++) {
            assertTrue(g.retake(1.3, 1.0), "retake " + (i + 1));
        }
        assertEquals(0, g.slowRunsCounted());
        assertFalse(g.retake(2.0, 2.0), "retakes spent: the run counts");
        assertEquals(SlowPhaseGuard.MAX_RETAKES, g.retakes());
        assertEquals(1, g.slowRunsCounted(), "a run counted while a CPU was slow: the fork is measured again");
        assertEquals(1.625, g.countedMedianRatio(), 1e-9, "median of 1.2, 1.25, 2.0, 2.0");
    }

    @Test
    void bothCpusSlowForTheJvmsWholeLifeAreSlowAgainstTheSuitesCalmReference() {
        double[] phase = {2.0, 2.1};                          // both vCPUs ~1.35x the suite's calm 1.5 ms
        CalmCpusGuard alone = new CalmCpusGuard(scripted(phase), scripted(phase), ms -> { });
        assertEquals(2.1, alone.awaitCalm());
        assertEquals(0, alone.waitedMs(), "alone, the guard takes its slow speed for calm");
        assertFalse(alone.retake(2.1, 2.1));

        AtomicInteger sleeps = new AtomicInteger();
        CalmCpusGuard given = new CalmCpusGuard(scripted(phase), scripted(phase, phase, phase, new double[]{1.55, 1.6}),
                ms -> sleeps.incrementAndGet()).knownCalm(1.5);
        assertEquals(1.6, given.awaitCalm(), "waited until both CPUs probed calm against the reference");
        assertEquals(2, sleeps.get());
        assertEquals(1.55, given.fastestMs(), "the row reports the fastest its own JVM saw");
        assertEquals(1.5, given.calmMs());
        assertTrue(given.retake(1.6, 2.1), "slow after the run against the reference");
        assertFalse(given.retake(1.6, 1.55));
        assertThrows(IllegalArgumentException.class, () -> given.knownCalm(-1));
    }

    @Test
    void aProbeThatTimedNoCpuIsAnError() {
        CalmCpusGuard g = new CalmCpusGuard(() -> new double[0], () -> new double[0], ms -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, g::sample);
        assertTrue(e.getMessage().contains("no CPU"), e.getMessage());
    }

    @Test
    void twoVcpusFastAloneButSlowTogetherAreNotCalm() {
        List<Long> slept = new ArrayList<>();
        CalmCpusGuard g = new CalmCpusGuard(scripted(new double[]{1.0, 1.0}),
                scripted(new double[]{1.0, 1.0}, new double[]{1.5, 1.6}), slept::add);
        assertEquals(1.0, g.awaitCalm(), "waited while the CPUs, probed together, ran 1.5x slower");
        assertEquals(List.of(100L), slept);
    }

    @Test
    void aRealProbeTimesEveryAllowedCpuAloneAndTogether() {
        if (!CpuChoice.available()) {
            return;                                        // no affinity here: the runner never makes one
        }
        java.util.BitSet before = dev.spindle.topology.CpuAffinity.ofCurrentThread();
        double[] together = CpuChoice.probeTogether();
        assertEquals(before.cardinality(), together.length, "one time per allowed CPU");
        for (double ms : together) {
            assertTrue(ms > 0 && ms < 5_000, "probe took " + ms + " ms");
        }
        assertEquals(before, dev.spindle.topology.CpuAffinity.ofCurrentThread(), "the calling thread's CPUs untouched");
        CalmCpusGuard g = new CalmCpusGuard();
        double slowest = g.sample();
        assertTrue(g.fastestMs() <= slowest, "fastest " + g.fastestMs() + " above slowest " + slowest);
    }

    /** A two-worker variant whose runs the runner takes again when the guard's probe says slow. */
    @Test
    void theRunnerRetakesATwoWorkerRowsRunsAndReportsTheWait() {
        RecordedBenchmark b = new RecordedBenchmark();
        Suite suite = new Suite("calm", "test", List.of(b));
        double[] c = {1.0, 1.0};
        double[] slow = {1.0, 1.5};
        // 3 baseline probes alone; run 1: before calm, after slow (retaken); run 1 again: one slow
        // probe before (a 100-ms wait), then calm; runs 2 and 3 calm. (A scripted probe's first
        // argument is what it answers once its script ends.)
        List<Long> slept = new ArrayList<>();
        int runs = 3;
        Runner runner = new Runner(Size.SMALL, new int[]{2}, runs, new Warmup(1, 0L, 1),
                Progress.child(new PrintStream(OutputStream.nullOutputStream())), null, false)
                .guardCalmCpus(() -> new CalmCpusGuard(scripted(c), scripted(c, c, slow, slow, c), slept::add));
        Measurement m = runner.measure(suite, b, b.variant("a"), 2, 7, new Object[1]);

        assertNull(m.error(), "the row ran");
        assertEquals(runs, m.timesMs().length, "kept runs");
        assertEquals(1 + runs + 1, b.order.size(), "one warm-up, three kept runs and one taken again: " + m.counters());
        assertEquals(1.0, m.counters().get("cpu_slow_retakes"));
        assertEquals(100.0, m.counters().get("cpu_calm_wait_ms"));
        assertEquals(List.of(100L), slept);
        assertEquals(1.0, m.counters().get("cpu_probe_ratio"), "the counted runs' probes were calm");
        assertEquals(0.0, m.counters().get(SlowForks.COUNTER), "no run counted while a CPU was slow");
    }
}
