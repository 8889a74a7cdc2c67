package dev.spindle.bench.runner;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.topology.CpuAffinity;
import org.junit.jupiter.api.Test;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A one-thread row's timed run on the CPU that probed fastest: every thread there, then released. */
class RunPlacementTest {

    @Test
    void aOneWorkerPoolsWorkerRunsAPlacedRunOnTheChosenCpu() {
        assumeTrue(CpuChoice.available(), "needs affinity and two CPUs");
        BitSet all = CpuAffinity.ofCurrentThread();
        RunPlacement placement = RunPlacement.ofCallingThread();
        try (SpindlePool pool = RunPlacement.openWithoutParkBinding(() -> new SpindlePool(1))) {
            assertFalse(pool.isParkBinding(), "a placed one-worker pool opens with park binding off");
            assertEquals(all, pool.invoke(task()), "before any placement the worker may use every CPU");
            for (int run = 0; run < 4; run++) {
                CpuChoice.Choice c = placement.place();
                BitSet chosen = new BitSet();
                chosen.set(c.cpu());
                try {
                    assertEquals(chosen, CpuAffinity.ofCurrentThread(), "the timed thread on the chosen CPU");
                    assertEquals(chosen, pool.invoke(task()), "the worker, woken for the run, stays on the chosen CPU");
                } finally {
                    placement.release();
                }
                assertEquals(all, CpuAffinity.ofCurrentThread(), "released after the run");
            }
            assertEquals(all, pool.invoke(task()), "the worker released too");
        } finally {
            CpuChoice.setProcessCpus(all.stream().toArray());
        }
        assertTrue(placement.summary().startsWith("CPU "), placement.summary());
        assertEquals(4, java.util.Arrays.stream(placement.summary().split(", "))
                .mapToInt(p -> Integer.parseInt(p.replaceAll(".*: (\\d+).*", "$1"))).sum(), placement.summary());
        assertTrue(placement.medianProbeRatio() >= 1.0, "slowest CPU over the chosen one: " + placement.medianProbeRatio());
    }

    @Test
    void openWithoutParkBindingRestoresTheProperty() {
        String key = "spindle.parkBinding";
        String before = System.getProperty(key);
        try {
            System.clearProperty(key);
            assertEquals("false", RunPlacement.openWithoutParkBinding(() -> System.getProperty(key)));
            assertNull(System.getProperty(key), "an unset property is unset again");
            System.setProperty(key, "true");
            assertEquals("false", RunPlacement.openWithoutParkBinding(() -> System.getProperty(key)));
            assertEquals("true", System.getProperty(key), "a set property is restored");
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }

    @Test
    void noPlacedRunsSayNothing() {
        RunPlacement placement = new RunPlacement(new int[]{0, 1});
        assertEquals("", placement.summary());
        assertTrue(Double.isNaN(placement.medianProbeRatio()));
    }

    private static Task<BitSet> task() {
        return new Task<>() {
            @Override
            protected BitSet compute() {
                return CpuAffinity.ofCurrentThread();
            }
        };
    }
}
