package dev.spindle.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The machine's processor topology, for choosing a pool's parallelism (seed 003, §5.2: the
 * application asks the runtime for the machine's topology): logical CPUs, physical cores,
 * sockets and NUMA nodes. Read from {@code /sys/devices/system} on Linux; elsewhere, or if those
 * files are missing or unreadable, a portable fallback that knows only
 * {@link Runtime#availableProcessors()} and says so in {@link #source()}.
 *
 * <pre>{@code
 * Topology t = Topology.current();
 * SpindlePool pool = new SpindlePool(t.cores());      // one worker per physical core
 * }</pre>
 */
public final class Topology {
    private static final Path SYS = Path.of("/sys/devices/system");
    private static volatile Topology current;

    private final int logicalCpus;
    private final int cores;
    private final int sockets;
    private final List<BitSet> nodes;
    private final int[] spreadOrder;
    private final String source;

    private Topology(int logicalCpus, int cores, int sockets, List<BitSet> nodes, int[] spreadOrder, String source) {
        this.logicalCpus = logicalCpus;
        this.spreadOrder = spreadOrder;
        this.cores = cores;
        this.sockets = sockets;
        this.nodes = nodes;
        this.source = source;
    }

    /**
     * This machine's topology, read once.
     *
     * @return the topology
     */
    public static Topology current() {
        Topology t = current;
        if (t == null) {
            t = read(SYS);
            current = t;
        }
        return t;
    }

    /**
     * Reads a topology from a {@code /sys/devices/system}-shaped directory (tests pass their own),
     * falling back to {@link Runtime#availableProcessors()} if it cannot.
     *
     * @param sys the directory holding {@code cpu/} and {@code node/}
     * @return the topology
     */
    static Topology read(Path sys) {
        try {
            BitSet online = parseCpuList(Files.readString(sys.resolve("cpu/online")).trim());
            if (online.isEmpty()) {
                return fallback("no online CPU listed in " + sys.resolve("cpu/online"));
            }
            TreeMap<Long, List<Integer>> cpusOfCore = new TreeMap<>();
            Set<Integer> packages = new HashSet<>();
            for (int c = online.nextSetBit(0); c >= 0; c = online.nextSetBit(c + 1)) {
                Path topo = sys.resolve("cpu/cpu" + c + "/topology");
                int pkg = Integer.parseInt(Files.readString(topo.resolve("physical_package_id")).trim());
                int core = Integer.parseInt(Files.readString(topo.resolve("core_id")).trim());
                packages.add(pkg);
                cpusOfCore.computeIfAbsent(((long) pkg << 32) | (core & 0xffffffffL), k -> new ArrayList<>()).add(c);
            }
            List<BitSet> nodes = new ArrayList<>();
            Path nodeDir = sys.resolve("node");
            if (Files.isDirectory(nodeDir)) {
                for (int n = 0; Files.exists(nodeDir.resolve("node" + n)); n++) {
                    nodes.add(parseCpuList(Files.readString(nodeDir.resolve("node" + n + "/cpulist")).trim()));
                }
            }
            if (nodes.isEmpty()) {
                nodes.add(online);
            }
            return new Topology(online.cardinality(), cpusOfCore.size(), packages.size(), List.copyOf(nodes),
                    spread(cpusOfCore.values(), online.cardinality()), "sysfs");
        } catch (IOException | RuntimeException e) {
            return fallback(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Topology fallback(String why) {
        int n = Runtime.getRuntime().availableProcessors();
        BitSet all = new BitSet();
        all.set(0, n);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return new Topology(n, n, 1, List.of(all), order, "fallback (" + why + ")");
    }

    /** The first CPU of every core, then the second of every core, and so on. */
    private static int[] spread(java.util.Collection<List<Integer>> cores, int cpus) {
        int[] order = new int[cpus];
        int k = 0;
        for (int sibling = 0; k < cpus; sibling++) {
            for (List<Integer> core : cores) {
                if (sibling < core.size()) {
                    order[k++] = core.get(sibling);
                }
            }
        }
        return order;
    }

    /**
     * Parses a Linux CPU list such as {@code 0-3,8,10-11}.
     *
     * @param list the list
     * @return the CPUs
     * @throws IllegalArgumentException naming the list if it is malformed
     */
    static BitSet parseCpuList(String list) {
        BitSet s = new BitSet();
        if (list.isEmpty()) {
            return s;
        }
        for (String part : list.split(",")) {
            String p = part.trim();
            try {
                int dash = p.indexOf('-');
                if (dash < 0) {
                    s.set(Integer.parseInt(p));
                } else {
                    int lo = Integer.parseInt(p.substring(0, dash)), hi = Integer.parseInt(p.substring(dash + 1));
                    if (lo > hi || lo < 0) {
                        throw new IllegalArgumentException("bad CPU range '" + p + "' in CPU list '" + list + "'");
                    }
                    s.set(lo, hi + 1);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad CPU list '" + list + "'", e);
            }
        }
        return s;
    }

    /**
     * The online CPUs in the order a pool should use them, one thread per physical core before a
     * second hardware thread of any core: the first CPU of every core (cores in socket, then core
     * id order), then the second of every core, and so on. Worker pinning
     * ({@code SpindlePool.setWorkerPinning}) gives worker <i>i</i> the <i>i</i>-th entry that the
     * process may use.
     *
     * @return a new array of CPU numbers
     */
    public int[] cpusSpreadOverCores() {
        return spreadOrder.clone();
    }

    /**
     * Logical CPUs (hardware threads) online.
     *
     * @return the count
     */
    public int logicalCpus() {
        return logicalCpus;
    }

    /**
     * Physical cores (distinct core ids per socket) among the online CPUs.
     *
     * @return the count
     */
    public int cores() {
        return cores;
    }

    /**
     * Sockets (physical packages).
     *
     * @return the count
     */
    public int sockets() {
        return sockets;
    }

    /**
     * NUMA nodes (1 if the machine reports none).
     *
     * @return the count
     */
    public int numaNodes() {
        return nodes.size();
    }

    /**
     * The CPUs of NUMA node {@code node}.
     *
     * @param node 0 .. numaNodes() - 1
     * @return a copy of the CPU set
     * @throws IndexOutOfBoundsException naming the node if there is no such node
     */
    public BitSet cpusOfNode(int node) {
        if (node < 0 || node >= nodes.size()) {
            throw new IndexOutOfBoundsException("NUMA node " + node + " does not exist; nodes: 0.." + (nodes.size() - 1));
        }
        return (BitSet) nodes.get(node).clone();
    }

    /**
     * Where the figures come from: {@code "sysfs"}, or {@code "fallback (reason)"}.
     *
     * @return the source
     */
    public String source() {
        return source;
    }

    @Override
    public String toString() {
        return logicalCpus + " logical CPUs, " + cores + " cores, " + sockets + " socket(s), " + nodes.size()
                + " NUMA node(s) [" + source + "]";
    }
}
