package dev.spindle.runtime;

import dev.spindle.topology.CpuAffinity;
import dev.spindle.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** {@link SpindlePool#setWorkerPinning}: each worker bound to its CPU, then released. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerPinningTest {

    @Test
    void pinningIsOffByDefault() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            assertFalse(pool.isWorkerPinning());
            for (String[] r : everyWorkerReports(pool, 2)) {
                assertEquals("-1", r[1], "worker " + r[0] + " is pinned but nobody asked");
            }
        }
    }

    @Test
    void workersPinToSpreadCpusAndUnpinBackToTheWholeSet() throws Exception {
        if (!CpuAffinity.isSupported()) {
            try (SpindlePool pool = new SpindlePool(1)) {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> pool.setWorkerPinning(true));
                assertTrue(e.getMessage().contains(CpuAffinity.unsupportedReason()), e.getMessage());
            }
            return;
        }
        BitSet allowed = CpuAffinity.ofCurrentThread();
        int n = Math.max(2, Math.min(4, allowed.cardinality()));
        try (SpindlePool pool = new SpindlePool(n)) {
            pool.setWorkerPinning(true);
            assertTrue(pool.isWorkerPinning());
            for (String[] r : everyWorkerReports(pool, n)) {
                int index = Integer.parseInt(r[0]);
                int expected = SpindlePool.cpuFor(index, allowed);
                assertEquals(Integer.toString(expected), r[1], "worker " + index + " pinned CPU");
                assertEquals("{" + expected + "}", r[2], "kernel's view of worker " + index);
            }
            pool.setWorkerPinning(false);
            for (String[] r : everyWorkerReports(pool, n)) {
                assertEquals("-1", r[1], "worker " + r[0] + " still pinned");
                assertEquals(allowed.toString(), r[2], "worker " + r[0] + " did not get its CPUs back");
            }
            // Workers started later follow the setting in force.
            pool.setWorkerPinning(true);
            pool.setParallelism(n + 1);
            for (String[] r : everyWorkerReports(pool, n + 1)) {
                int index = Integer.parseInt(r[0]);
                assertEquals(Integer.toString(SpindlePool.cpuFor(index, allowed)), r[1], "worker " + index);
            }
        }
    }

    @Test
    void cpusAreSpreadOverCoresFirst() {
        int[] order = Topology.current().cpusSpreadOverCores();
        BitSet all = new BitSet();
        for (int c : order) {
            all.set(c);
        }
        for (int i = 0; i < order.length; i++) {
            assertEquals(order[i], SpindlePool.cpuFor(i, all));
        }
        assertEquals(order[0], SpindlePool.cpuFor(order.length, all), "wraps around");
        BitSet one = new BitSet();
        one.set(order[order.length - 1]);
        assertEquals(order[order.length - 1], SpindlePool.cpuFor(5, one), "only allowed CPUs are used");
    }

    @Test
    void defaultPoolPinPropertyIsValidated() {
        SystemPropertyScope.with(DefaultPool.PIN_PROPERTY, () -> {
            System.setProperty(DefaultPool.PIN_PROPERTY, "yes");
            IllegalStateException e = assertThrows(IllegalStateException.class, DefaultPool::configuredPinning);
            assertTrue(e.getMessage().contains("yes"), e.getMessage());
            System.setProperty(DefaultPool.PIN_PROPERTY, "TRUE");
            assertTrue(DefaultPool.configuredPinning());
            System.clearProperty(DefaultPool.PIN_PROPERTY);
            assertFalse(DefaultPool.configuredPinning());
        });
    }

    /**
     * One task per worker, all held at a barrier so that each worker runs exactly one: returns
     * {index, pinnedCpu, kernel's Cpus_allowed_list} for every worker.
     */
    private static List<String[]> everyWorkerReports(SpindlePool pool, int n) throws Exception {
        CyclicBarrier all = new CyclicBarrier(n);
        List<Future<String[]>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(pool.submit(() -> {
                all.await(30, TimeUnit.SECONDS);
                Worker w = (Worker) Thread.currentThread();
                return new String[]{Integer.toString(w.index()), Integer.toString(w.pinnedCpu()), kernelsView().toString()};
            }));
        }
        List<String[]> out = new ArrayList<>();
        BitSet seen = new BitSet();
        for (Future<String[]> f : fs) {
            String[] r = f.get(60, TimeUnit.SECONDS);
            seen.set(Integer.parseInt(r[0]));
            out.add(r);
        }
        assertEquals(n, seen.cardinality(), "every worker must report once");
        return out;
    }

    private static BitSet kernelsView() throws Exception {
        return KernelAffinity.ofCurrentThread();
    }
}
