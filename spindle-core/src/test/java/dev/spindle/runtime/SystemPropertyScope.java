package dev.spindle.runtime;

/** Runs test code that sets a system property, and puts the property back as it was. */
final class SystemPropertyScope {
    private SystemPropertyScope() {
    }

    static void with(String key, Runnable body) {
        String old = System.getProperty(key);
        try {
            body.run();
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }
}
