package dev.spindle.runtime;

/**
 * The lazily created default pool. Its size comes from the system property
 * {@value #WORKERS_PROPERTY}, and whether its workers are pinned to CPUs from
 * {@value #PIN_PROPERTY} ({@code true} or {@code false}, default false), both read at first use;
 * an invalid value fails that use (and every later one until fixed) with an
 * {@link IllegalStateException} naming the value. Pinning asked for on a JVM that cannot pin logs
 * a WARNING and the pool runs unpinned: the flag is a tuning hint, not a reason to stop.
 */
final class DefaultPool {
    static final String WORKERS_PROPERTY = "spindle.workers";
    static final String PIN_PROPERTY = "spindle.pin";

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
                int workers = configuredWorkers();
                boolean pin = configuredPinning();
                SpindlePool p0 = new SpindlePool(workers, true);
                if (pin) {
                    try {
                        p0.setWorkerPinning(true);
                    } catch (UnsupportedOperationException e) {
                        System.getLogger(DefaultPool.class.getName()).log(System.Logger.Level.WARNING,
                                "-D" + PIN_PROPERTY + "=true ignored: " + e.getMessage());
                    }
                }
                // The default pool never closes: report untouched future failures at JVM exit.
                Runtime.getRuntime().addShutdownHook(new Thread(() -> p0.untouchedFailures().reportAll(),
                        "spindle-untouched-failures"));
                pool = p0;
            }
            return pool;
        }
    }

    static boolean configuredPinning() {
        String v = System.getProperty(PIN_PROPERTY);
        if (v == null || v.isBlank() || v.trim().equalsIgnoreCase("false")) {
            return false;
        }
        if (v.trim().equalsIgnoreCase("true")) {
            return true;
        }
        throw new IllegalStateException("-D" + PIN_PROPERTY + "=" + v + " is not true or false");
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
