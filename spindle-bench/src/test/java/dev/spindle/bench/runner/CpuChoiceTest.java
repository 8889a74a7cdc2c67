package dev.spindle.bench.runner;

import dev.spindle.topology.CpuAffinity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The runner's CPU choice: a probe of every allowed CPU, and a process started confined to one. */
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
    void processStartedOnACpuRunsThereAndTheCallerIsRestored() throws Exception {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        BitSet before = CpuAffinity.ofCurrentThread();
        int cpu = before.stream().max().orElseThrow();
        Process p = CpuChoice.startOn(cpu, () -> new ProcessBuilder("cat", "/proc/self/status").redirectErrorStream(true).start());
        assertEquals(before, CpuAffinity.ofCurrentThread(), "the calling thread's CPUs are restored");
        String status = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "cat /proc/self/status did not exit");
        String allowed = status.lines().filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst()
                .orElseThrow(() -> new AssertionError("no Cpus_allowed_list in " + status));
        assertEquals("Cpus_allowed_list:\t" + cpu, allowed, "the child may run on CPU " + cpu + " only");
    }

    @Test
    void aOneCpuJvmKeepsTheMachinesProcessorCount() {
        List<String> own = List.of("-Xms3g", "-agentlib:jdwp=transport=dt_socket", "-javaagent:x.jar", "--enable-native-access=ALL-UNNAMED");
        assertEquals(List.of("-Xms3g", "--enable-native-access=ALL-UNNAMED"), Runner.childJvmOptions(own, false, 2));
        assertEquals(List.of("-Xms3g", "--enable-native-access=ALL-UNNAMED", "-XX:ActiveProcessorCount=2"),
                Runner.childJvmOptions(own, true, 2));
        assertEquals(List.of("-XX:ActiveProcessorCount=8"), Runner.childJvmOptions(List.of("-XX:ActiveProcessorCount=8"), true, 2),
                "a count the user gave is kept");
    }

    @Test
    void aJvmStartedOnOneCpuWithTheCountRunsG1() throws Exception {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        int cpu = CpuAffinity.ofCurrentThread().nextSetBit(0);
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(Runner.childJvmOptions(List.of("-Xmx64m"), true, Runtime.getRuntime().availableProcessors()));
        cmd.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process p = CpuChoice.startOn(cpu, () -> new ProcessBuilder(cmd).redirectErrorStream(true).start());
        String flags = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "java -version did not exit");
        assertTrue(flags.lines().anyMatch(l -> l.matches("\\s*bool UseG1GC\\s+= true.*")),
                "a one-CPU measuring JVM must run the collector the others run (G1):\n"
                        + flags.lines().filter(l -> l.contains("GC ")).toList());
    }

    @Test
    void widenProcessLetsEveryThreadRunOnEveryCpuAgain() throws Exception {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        BitSet all = CpuAffinity.ofCurrentThread();
        int cpu = all.nextSetBit(0);
        // A thread started while this one is confined inherits the confinement, as a JVM's do.
        Thread[] t = new Thread[1];
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        BitSet[] seen = new BitSet[2];
        CpuChoice.startOn(cpu, () -> {
            t[0] = new Thread(() -> {
                seen[0] = CpuAffinity.ofCurrentThread();
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                seen[1] = CpuAffinity.ofCurrentThread();
            }, "confined");
            t[0].start();
            return null;
        });
        BitSet before = CpuAffinity.ofCurrentThread();
        try {
            assertTrue(started.await(30, TimeUnit.SECONDS), "the confined thread did not start");
            assertEquals(1, seen[0].cardinality(), "the thread started confined: " + seen[0]);
            CpuAffinity.setCurrentThread(seen[0]);
            int widened = CpuChoice.widenProcess(all.stream().toArray());
            assertTrue(widened >= 2, "this thread and the confined one at least: " + widened);
            assertEquals(all, CpuAffinity.ofCurrentThread(), "the calling thread widened");
        } finally {
            CpuAffinity.setCurrentThread(before);     // the next test in this JVM runs where this one began
            release.countDown();
            t[0].join(30_000);
        }
        assertEquals(all, seen[1], "the confined thread widened");
    }

    @Test
    void aFailedStartStillRestoresTheCaller() {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        BitSet before = CpuAffinity.ofCurrentThread();
        int cpu = before.nextSetBit(0);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CpuChoice.startOn(cpu, () -> {
                    throw new IllegalStateException("no such program");
                }));
        assertEquals("no such program", e.getMessage());
        assertEquals(before, CpuAffinity.ofCurrentThread(), "the calling thread's CPUs are restored");
    }
}
