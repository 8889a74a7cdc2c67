package dev.spindle.runtime;

import dev.spindle.topology.CpuAffinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.NoSuchFileException;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link ParkBinding}: a parked worker sleeps bound to one CPU, is steered off a waker's CPU on
 * request, and never runs a task bound. The kernel's view of each thread's affinity is read from
 * {@code /proc/self/task/TID/status}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ParkBindingTest {

    @Test
    void aParkedWorkerSleepsOnOneCpuAndRunsTasksWithAllItsCpus() throws Exception {
        BitSet allowed = supportedWithTwoCpus();
        try (SpindlePool pool = new SpindlePool(2)) {
            pool.setParkBinding(true);
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 2; i++) {
                    Worker w = awaitBoundAndParked(pool, i);
                    int cpu = w.parkBinding.boundCpu();
                    assertTrue(allowed.get(cpu), "bound to " + cpu + ", outside the worker's CPUs " + allowed);
                    assertEquals(single(cpu), kernelsView(w.parkBinding.tid()), "kernel's view of parked worker " + i);
                }
                assertEquals(allowed, pool.submit(ParkBindingTest::myCpus).get(30, TimeUnit.SECONDS),
                        "a woken worker ran a task without its CPUs back (round " + round + ")");
            }
        }
    }

    @Test
    void aWakerSteersASleeperBoundToItsCpuElsewhere() throws Exception {
        BitSet allowed = supportedWithTwoCpus();
        try (SpindlePool pool = new SpindlePool(1)) {
            pool.setParkBinding(true);
            Worker w = awaitBoundAndParked(pool, 0);
            int cpu = w.parkBinding.boundCpu();
            int other = allowed.nextSetBit(0) == cpu ? allowed.nextSetBit(cpu + 1) : allowed.nextSetBit(0);
            w.parkBinding.steerAwayFrom(other);
            assertEquals(single(cpu), kernelsView(w.parkBinding.tid()), "steered although bound to another CPU than the waker's");
            w.parkBinding.steerAwayFrom(cpu);
            BitSet rest = (BitSet) allowed.clone();
            rest.clear(cpu);
            assertEquals(rest, kernelsView(w.parkBinding.tid()), "the sleeper must be allowed every CPU but the waker's");
            assertEquals(-2, w.parkBinding.boundCpu(), "a steered sleeper is no longer beside anyone");
            assertEquals(allowed, pool.submit(ParkBindingTest::myCpus).get(30, TimeUnit.SECONDS),
                    "a steered worker ran a task without its CPUs back");
        }
    }

    @Test
    void offLeavesParkedWorkersTheirCpus() throws Exception {
        BitSet allowed = supportedWithTwoCpus();
        try (SpindlePool pool = new SpindlePool(1)) {
            pool.setParkBinding(false);
            assertFalse(pool.isParkBinding());
            long parks = pool.statistics().workers().get(0).parks();     // before the task: it may park right after
            int tid = pool.submit(CpuAffinity::currentThreadId).get(30, TimeUnit.SECONDS);
            Worker w = pool.workerAt(0);
            for (int i = 0; w.parkState != IdleProtocol.PARKED_IDLE || pool.statistics().workers().get(0).parks() == parks; i++) {
                assertTrue(i < 30_000, "worker 0 did not park within 30 s: " + pool);
                Thread.sleep(1);           // polling the worker's state, not standing in for synchronization
            }
            assertEquals(-1, w.parkBinding.boundCpu());
            assertEquals(allowed, kernelsView(tid), "a parked worker was bound with park binding off");
        }
    }

    @Test
    void pinnedWorkersStayPinnedWhileParked() throws Exception {
        supportedWithTwoCpus();
        try (SpindlePool pool = new SpindlePool(1)) {
            pool.setParkBinding(true);
            pool.setWorkerPinning(true);
            long parks = pool.statistics().workers().get(0).parks();     // before the task: it may park right after
            int pinned = pool.submit(() -> ((Worker) Thread.currentThread()).pinnedCpu()).get(30, TimeUnit.SECONDS);
            int tid = pool.submit(CpuAffinity::currentThreadId).get(30, TimeUnit.SECONDS);
            Worker w = pool.workerAt(0);
            for (int i = 0; w.parkState != IdleProtocol.PARKED_IDLE || pool.statistics().workers().get(0).parks() == parks; i++) {
                assertTrue(i < 30_000, "worker 0 did not park within 30 s: " + pool);
                Thread.sleep(1);
            }
            assertEquals(-1, w.parkBinding.boundCpu(), "a pinned worker needs no park binding");
            assertEquals(single(pinned), kernelsView(tid));
            assertEquals(single(pinned), pool.submit(ParkBindingTest::myCpus).get(30, TimeUnit.SECONDS), "still pinned after waking");
        }
    }

    @Test
    void propertyIsValidated() {
        SystemPropertyScope.with(ParkBinding.PROPERTY, () -> {
            System.setProperty(ParkBinding.PROPERTY, "sometimes");
            IllegalStateException e = assertThrows(IllegalStateException.class, ParkBinding::configuredDefault);
            assertTrue(e.getMessage().contains("sometimes"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> new SpindlePool(1).close(), "a pool must refuse the bad value too");
            System.setProperty(ParkBinding.PROPERTY, "FALSE");
            assertFalse(ParkBinding.configuredDefault());
            try (SpindlePool pool = new SpindlePool(1)) {
                assertFalse(pool.isParkBinding());
            }
            System.setProperty(ParkBinding.PROPERTY, "true");
            assertTrue(ParkBinding.configuredDefault());
            System.clearProperty(ParkBinding.PROPERTY);
            // Unset: on exactly where affinity works and native access is enabled (the build passes
            // --enable-native-access, so on Linux with JDK 22+ it is on).
            assertEquals(ParkBinding.nativeAccessEnabled() && CpuAffinity.isSupported(),
                    ParkBinding.configuredDefault());
        });
    }

    // ------------------------------------------------------------------ helpers

    private static BitSet supportedWithTwoCpus() {
        assumeTrue(CpuAffinity.isSupported(), () -> "park binding needs affinity: " + CpuAffinity.unsupportedReason());
        BitSet allowed = CpuAffinity.ofCurrentThread();
        assumeTrue(allowed.cardinality() >= 2, "park binding needs two allowed CPUs; this process has " + allowed);
        return allowed;
    }

    /** Waits until worker {@code i} is parked idle and bound (it binds after announcing the park). */
    private static Worker awaitBoundAndParked(SpindlePool pool, int i) throws InterruptedException {
        for (int k = 0; ; k++) {
            Worker w = pool.workerAt(i);
            if (w != null && w.parkState == IdleProtocol.PARKED_IDLE && w.parkBinding.boundCpu() >= 0) {
                return w;
            }
            assertTrue(k < 30_000, "worker " + i + " was not parked and bound within 30 s: " + pool);
            Thread.sleep(1);               // polling the worker's state, not standing in for synchronization
        }
    }

    private static BitSet single(int cpu) {
        BitSet b = new BitSet();
        b.set(cpu);
        return b;
    }

    private static BitSet myCpus() {
        return CpuAffinity.ofCurrentThread();
    }

    private static BitSet kernelsView(int tid) throws Exception {
        assertTrue(tid > 0, "the worker's thread id is unknown");
        try {
            return KernelAffinity.ofThread(tid);
        } catch (NoSuchFileException e) {
            return fail("no thread " + tid + " in this process");
        }
    }
}
