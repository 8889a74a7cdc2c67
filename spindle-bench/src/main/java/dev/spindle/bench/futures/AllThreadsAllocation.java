package dev.spindle.bench.futures;

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated so far by all live threads of this JVM, for the probes that print allocation per
 * run or per future (the runner measures it the same way, see docs/PERFORMANCE.md, "Measuring
 * allocation"). Threads that ended are not counted, so take both readings while the pool is open.
 */
final class AllThreadsAllocation {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllThreadsAllocation() {
    }

    /** @return the sum over live threads of {@code getThreadAllocatedBytes} (unsupported ones count 0) */
    static long bytes() {
        long sum = 0;
        for (long id : MX.getAllThreadIds()) {
            long b = MX.getThreadAllocatedBytes(id);
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
    }
}
