package dev.spindle.bench.runner;

import dev.spindle.topology.CpuAffinity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The runner's CPU choice: a probe of every allowed CPU, and every thread of this JVM confined to one and released. */
class CpuChoiceTest {

    @Test
    void probeChoosesTheFastestAllowedCpuAndRestoresTheCaller() {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        BitSet before = CpuAffinity.ofCurrentThread();
        CpuChoice.Choice c = CpuChoice.probe();
        assertEquals(before, CpuAffinity.ofCurrentThread(), "the calling thread's CPUs are restored");
        assertArrayEquals(before.stream().toArray(), c.cpus(), "every allowed CPU is probed");
        assertTrue(before.get(c.cpu()), "the chosen CPU " + c.cpu() + " is allowed: " + before);
        for (int i = 0; i < c.cpus().length; i++) {
            double ms = c.probeMs()[i];
            assertTrue(ms > 0 && ms < 10_000, "CPU " + c.cpus()[i] + " probe took " + ms + " ms");
            assertTrue(c.probeMs()[java.util.Arrays.binarySearch(c.cpus(), c.cpu())] <= ms,
                    "the chosen CPU is the fastest: " + c);
        }
        assertTrue(c.slowestOverChosen() >= 1.0, c.toString());
        assertTrue(c.toString().startsWith("CPU " + c.cpu() + " (probe cpu"), c.toString());
    }

    @Test
    void childJvmOptionsDropDebuggerAndAgents() {
        List<String> own = List.of("-Xms3g", "-agentlib:jdwp=transport=dt_socket", "-javaagent:x.jar", "--enable-native-access=ALL-UNNAMED");
        assertEquals(List.of("-Xms3g", "--enable-native-access=ALL-UNNAMED"), Runner.childJvmOptions(own));
    }

    @Test
    void setProcessCpusConfinesEveryThreadAndReleasesThem() throws Exception {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        BitSet all = CpuAffinity.ofCurrentThread();
        int cpu = all.nextSetBit(0);
        BitSet one = new BitSet();
        one.set(cpu);
        java.util.concurrent.CyclicBarrier step = new java.util.concurrent.CyclicBarrier(2);
        BitSet[] seen = new BitSet[2];
        Thread other = new Thread(() -> {
            try {
                step.await(30, TimeUnit.SECONDS);               // started
                step.await(30, TimeUnit.SECONDS);               // confined
                seen[0] = CpuAffinity.ofCurrentThread();
                step.await(30, TimeUnit.SECONDS);               // read
                step.await(30, TimeUnit.SECONDS);               // released
                seen[1] = CpuAffinity.ofCurrentThread();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "another thread of this JVM");
        other.start();
        try {
            step.await(30, TimeUnit.SECONDS);
            int n = CpuChoice.setProcessCpus(cpu);
            assertTrue(n >= 2, "this thread and the other one at least: " + n);
            assertEquals(one, CpuAffinity.ofCurrentThread(), "the calling thread confined");
            step.await(30, TimeUnit.SECONDS);
            step.await(30, TimeUnit.SECONDS);
            CpuChoice.setProcessCpus(all.stream().toArray());
            assertEquals(all, CpuAffinity.ofCurrentThread(), "the calling thread released");
            step.await(30, TimeUnit.SECONDS);
        } finally {
            CpuChoice.setProcessCpus(all.stream().toArray());    // the next test in this JVM runs where this one began
            other.join(30_000);
        }
        assertFalse(other.isAlive(), "the other thread did not finish");
        assertEquals(one, seen[0], "the other thread confined");
        assertEquals(all, seen[1], "the other thread released");
    }
}
