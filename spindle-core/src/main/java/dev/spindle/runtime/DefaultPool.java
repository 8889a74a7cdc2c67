package dev.spindle.runtime;

/**
 * The lazily created default pool. Its size comes from the system property
 * {@value #WORKERS_PROPERTY}, read at first use; an invalid value fails that use (and every later
 * one until fixed) with an {@link IllegalStateException} naming the value.
 */
final class DefaultPool {
    static final String WORKERS_PROPERTY = "spindle.workers";

    private static volatile SpindlePool pool;

    private DefaultPool() {
    }

    static SpindlePool get() {
        SpindlePool p = pool;
        if (p != null) {
            return p;
        }
        synchronized (DefaultPool.class) {
            if (pool == null) {
                SpindlePool p0 = new SpindlePool(configuredWorkers(), true);
                // The default pool never closes: report untouched future failures at JVM exit.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> p0.untouchedFailures().reportAll(),
                        "spindle-untouched-failures"));
                pool = p0;
            }
            return pool;
        }
    }

    static int configuredWorkers() {
        String v = System.getProperty(WORKERS_PROPERTY);
        if (v == null || v.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("-D" + WORKERS_PROPERTY + "=" + v
                    + " is not an integer; expected a worker count in 1.." + SpindlePool.MAX_WORKERS, e);
        }
        if (n < 1 || n > SpindlePool.MAX_WORKERS) {
            throw new IllegalStateException("-D" + WORKERS_PROPERTY + "=" + v
                    + " is out of range; expected a worker count in 1.." + SpindlePool.MAX_WORKERS);
        }
        return n;
    }
}
