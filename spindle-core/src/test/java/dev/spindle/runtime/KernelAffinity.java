package dev.spindle.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;

/** The kernel's view of a thread's CPU affinity: {@code Cpus_allowed_list} of its /proc status file. */
final class KernelAffinity {
    private KernelAffinity() {
    }

    /** The calling thread's allowed CPUs. */
    static BitSet ofCurrentThread() throws IOException {
        return read(Path.of("/proc/thread-self/status"));
    }

    /** The allowed CPUs of this process's thread with kernel id {@code tid}. */
    static BitSet ofThread(int tid) throws IOException {
        return read(Path.of("/proc/self/task/" + tid + "/status"));
    }

    private static BitSet read(Path status) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("Cpus_allowed_list:")) {
                BitSet s = new BitSet();
                for (String part : line.substring(line.indexOf(':') + 1).trim().split(",")) {
                    int dash = part.indexOf('-');
                    if (dash < 0) {
                        s.set(Integer.parseInt(part));
                    } else {
                        s.set(Integer.parseInt(part.substring(0, dash)), Integer.parseInt(part.substring(dash + 1)) + 1);
                    }
                }
                return s;
            }
        }
        throw new IllegalStateException("no Cpus_allowed_list in " + status);
    }
}
