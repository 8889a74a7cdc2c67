package dev.spindle.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.*;

/** Topology from a sysfs-shaped directory (two sockets, SMT, two NUMA nodes), and the fallback. */
class TopologyTest {

    private static void write(Path p, String s) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, s + "\n");
    }

    @Test
    void readsSocketsCoresThreadsAndNodes(@TempDir Path sys) throws Exception {
        write(sys.resolve("cpu/online"), "0-7");
        for (int c = 0; c < 8; c++) {
            int pkg = c / 4, core = (c % 4) / 2;             // 2 sockets x 2 cores x 2 threads
            write(sys.resolve("cpu/cpu" + c + "/topology/physical_package_id"), Integer.toString(pkg));
            write(sys.resolve("cpu/cpu" + c + "/topology/core_id"), Integer.toString(core));
        }
        write(sys.resolve("node/node0/cpulist"), "0-3");
        write(sys.resolve("node/node1/cpulist"), "4-7");
        Topology t = Topology.read(sys);
        assertEquals("sysfs", t.source());
        assertEquals(8, t.logicalCpus());
        assertEquals(4, t.cores());
        assertEquals(2, t.sockets());
        assertEquals(2, t.numaNodes());
        BitSet n1 = new BitSet();
        n1.set(4, 8);
        assertEquals(n1, t.cpusOfNode(1));
        assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> t.cpusOfNode(2)).getMessage().contains("2"));
        // one thread of each core first (cores: {0,1} {2,3} {4,5} {6,7}), then the siblings
        assertArrayEquals(new int[]{0, 2, 4, 6, 1, 3, 5, 7}, t.cpusSpreadOverCores());
    }

    @Test
    void missingFilesFallBackToAvailableProcessors(@TempDir Path empty) {
        Topology t = Topology.read(empty);
        assertTrue(t.source().startsWith("fallback"), t.source());
        assertEquals(Runtime.getRuntime().availableProcessors(), t.logicalCpus());
        assertEquals(1, t.numaNodes());
        assertEquals(t.logicalCpus(), t.cpusSpreadOverCores().length);
    }

    @Test
    void cpuListsParseAndBadOnesAreNamed() {
        BitSet s = Topology.parseCpuList("0-2,5,7-8");
        assertEquals("{0, 1, 2, 5, 7, 8}", s.toString());
        assertTrue(Topology.parseCpuList("").isEmpty());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Topology.parseCpuList("3-1")).getMessage().contains("3-1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Topology.parseCpuList("a")).getMessage().contains("'a'"));
    }

    @Test
    void thisMachineHasAtLeastOneOfEverything() {
        Topology t = Topology.current();
        assertTrue(t.logicalCpus() >= 1 && t.cores() >= 1 && t.sockets() >= 1 && t.numaNodes() >= 1, t.toString());
        assertTrue(t.cores() <= t.logicalCpus(), t.toString());
    }
}
