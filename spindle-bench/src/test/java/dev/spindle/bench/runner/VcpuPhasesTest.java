package dev.spindle.bench.runner;

import dev.spindle.topology.CpuAffinity;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** One pinned thread per CPU, each round runs the variant once on each, results checked, bad arguments named. */
class VcpuPhasesTest {

    private static BitSet twoCpus() {
        assumeTrue(CpuAffinity.isSupported(), () -> "affinity: " + CpuAffinity.unsupportedReason());
        BitSet allowed = CpuAffinity.ofCurrentThread();
        assumeTrue(allowed.cardinality() >= 2, "needs two CPUs, this JVM has " + allowed);
        BitSet two = new BitSet();
        int first = allowed.nextSetBit(0);
        two.set(first);
        two.set(allowed.nextSetBit(first + 1));
        return two;
    }

    @Test
    void everyRoundRunsOnceOnEachCpu() throws Exception {
        BitSet cpus = twoCpus();
        RecordedBenchmark r = new RecordedBenchmark();
        String out = VcpuPhases.run(r, "seq", cpus, 6);
        assertEquals(12, r.order.size(), out);
        for (int c : cpus.stream().toArray()) {
            String series = out.lines().filter(l -> l.startsWith("seq on CPU " + c + ", ms per round:")).findFirst().orElseThrow(() -> new AssertionError(out));
            assertEquals(6, series.substring(series.indexOf(':') + 1).trim().split(" ").length, out);
            assertTrue(out.contains("CPU " + c + ": min "), out);
        }
        assertTrue(out.contains("of 4 (slowest: CPU "), out);
    }

    @Test
    void aResultUnlikeTheFirstFailsNamingRoundAndCpu() throws Exception {
        BitSet cpus = twoCpus();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> VcpuPhases.run(new RecordedBenchmark(), "drifting", cpus, 3));
        assertTrue(e.getMessage().startsWith("drifting round 0 on CPU ") && e.getMessage().endsWith(": expected 7, got 8"), e.getMessage());
    }

    @Test
    void theReportCountsRoundsWhereOneCpuWasSlow() {
        double[][] ms = {{1, 1, 1, 100, 100, 200}, {1, 1, 1, 100, 150, 100}};
        String out = VcpuPhases.report("seq", new int[]{0, 1}, ms);
        assertTrue(out.contains("rounds with one CPU > 1.08 x another: 2 of 4 (slowest: CPU 0 1, CPU 1 1)"), out);
        assertTrue(out.contains("CPU 0: min 1.0, median 100.0, max 200.0 ms over the last 4 rounds"), out);
    }

    @Test
    void badArgumentsNameWhatIsWrong() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VcpuPhases.main(new String[]{"futures"}));
        assertTrue(e.getMessage().startsWith("usage: VcpuPhases SUITE BENCHMARK VARIANT ROUNDS"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> VcpuPhases.main(new String[]{"futures", "Knapsack", "seq", "2"}));
        assertEquals("ROUNDS must be at least 3 (the first third warms up), not 2", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> VcpuPhases.run(new RecordedBenchmark(), "a", new BitSet(), 3));
        assertEquals("variant a of Recorded runs on a pool's workers, which VcpuPhases cannot place; give one that runs on the calling thread (seq)", e.getMessage());
        BitSet one = new BitSet();
        one.set(0);
        e = assertThrows(IllegalArgumentException.class, () -> VcpuPhases.run(new RecordedBenchmark(), "seq", one, 3));
        assertEquals("VcpuPhases compares CPUs and this thread may use only {0}", e.getMessage());
    }
}
