package dev.spindle.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** {@link CpuAffinity} against the kernel's own account in /proc/thread-self/status. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CpuAffinityTest {

    private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");

    @Test
    void supportedWhereverTheFfmApiAndLinuxAre() {
        if (LINUX && Runtime.version().feature() >= 22) {
            assertTrue(CpuAffinity.isSupported(), CpuAffinity.unsupportedReason());
            assertNull(CpuAffinity.unsupportedReason());
        } else {
            assertFalse(CpuAffinity.isSupported());
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, CpuAffinity::ofCurrentThread);
            assertEquals(CpuAffinity.unsupportedReason(), e.getMessage());
        }
    }

    @Test
    void readsWhatTheKernelReports() throws Exception {
        if (!CpuAffinity.isSupported()) {
            return;                                   // covered by the test above
        }
        assertEquals(kernelsView(), CpuAffinity.ofCurrentThread());
    }

    /** Pins a fresh thread to each allowed CPU in turn, checks the kernel's view, then restores. */
    @Test
    void setsTheCallingThreadOnlyAndRestores() throws Exception {
        if (!CpuAffinity.isSupported()) {
            return;
        }
        BitSet mine = CpuAffinity.ofCurrentThread();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                BitSet all = CpuAffinity.ofCurrentThread();
                for (int c = all.nextSetBit(0); c >= 0; c = all.nextSetBit(c + 1)) {
                    BitSet one = new BitSet();
                    one.set(c);
                    CpuAffinity.setCurrentThread(one);
                    assertEquals(one, CpuAffinity.ofCurrentThread());
                    assertEquals(one, kernelsView(), "kernel's view after pinning to CPU " + c);
                }
                CpuAffinity.setCurrentThread(all);
                assertEquals(all, kernelsView());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "affinity-probe");
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(t.isAlive(), "affinity-probe hung");
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(mine, CpuAffinity.ofCurrentThread(), "another thread's pinning changed this thread");
    }

    @Test
    void badSetsAreRefusedNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuAffinity.setCurrentThread(new BitSet()));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
        if (!CpuAffinity.isSupported()) {
            return;
        }
        BitSet before = CpuAffinity.ofCurrentThread();
        BitSet absent = new BitSet();
        absent.set(4000);                             // no such CPU here
        IllegalStateException s = assertThrows(IllegalStateException.class, () -> CpuAffinity.setCurrentThread(absent));
        assertTrue(s.getMessage().contains("{4000}"), s.getMessage());
        assertEquals(before, CpuAffinity.ofCurrentThread(), "a refused call must leave the affinity alone");
    }

    /** Cpus_allowed_list of the calling thread, as the kernel reports it. */
    static BitSet kernelsView() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return Topology.parseCpuList(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new AssertionError("no Cpus_allowed_list in /proc/thread-self/status");
    }
}
