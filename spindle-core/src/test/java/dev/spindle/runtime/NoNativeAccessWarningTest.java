package dev.spindle.runtime;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A program that uses Spindle in a JVM started without {@code --enable-native-access} prints
 * nothing on Spindle's account: a pool whose park binding is off (its default there) never links
 * a native call, and the JDK warns at the first one. Until 2026-11-26 every worker read its CPU
 * affinity as it started, and every such program printed the JDK's four-line "restricted method"
 * warning. (The build's tests run with the flag, so this one starts a JVM of its own.)
 */
class NoNativeAccessWarningTest {

    /** The child JVM: a pool whose workers run tasks and park, a loop, a future. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            try (SpindlePool pool = new SpindlePool(2)) {
                if (pool.isParkBinding()) {
                    throw new AssertionError("park binding is on by default without native access");
                }
                for (int round = 0; round < 3; round++) {
                    // Counted before the task: the worker that runs it parks once it finds nothing
                    // more, possibly before this thread has returned from get(). (Counted after
                    // get(), as until 2026-11-27, that park could fall before the count, and the
                    // loop below then waited for a park that never came: both workers asleep.)
                    long parks = pool.statistics().workers().stream().mapToLong(WorkerStatistics::parks).sum();
                    pool.submit(() -> 1).get(30, TimeUnit.SECONDS);
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (pool.statistics().workers().stream().mapToLong(WorkerStatistics::parks).sum() == parks) {
                        if (System.nanoTime() > end) {
                            throw new AssertionError("no worker parked within 30 s of task " + round + ": " + pool);
                        }
                        Thread.onSpinWait();
                    }
                }
            }
            dev.spindle.loop.Loops.parallelFor(0, 1000, i -> { });
            System.out.println("child done " + dev.spindle.Spindle.future(() -> 42).touch());
        }
    }

    @Test
    void aProgramWithoutNativeAccessPrintsNoWarning() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path out = Files.createTempFile("spindle-child", ".out");
        try {
            Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"), Child.class.getName()))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            boolean exited = p.waitFor(120, TimeUnit.SECONDS);
            if (!exited) {
                p.destroyForcibly();
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            assertTrue(exited, "the child JVM hung; its output:\n" + text);
            assertEquals(0, p.exitValue(), "the child JVM failed:\n" + text);
            assertTrue(text.contains("child done 42"), text);
            assertFalse(text.contains("WARNING"), "the child printed a warning:\n" + text);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
