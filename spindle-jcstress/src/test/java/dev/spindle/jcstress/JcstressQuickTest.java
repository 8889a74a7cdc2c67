package dev.spindle.jcstress;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every jcstress test of this module in a separate JVM (jcstress forks its own VMs) in the
 * mode given by the system property {@code jcstress.mode} (quick in the normal test run), and
 * fails if any test reports a FORBIDDEN outcome or an error.
 */
class JcstressQuickTest {

    @Test
    void allProtocolsHoldUnderJcstress() throws Exception {
        String mode = System.getProperty("jcstress.mode", "quick");
        Path results = Path.of(System.getProperty("jcstress.results", "target/jcstress-results"));
        Files.createDirectories(results);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                "org.openjdk.jcstress.Main", "-m", mode, "-r", results.toString(), "-t", "dev\\.spindle\\..*"));
        if (mode.equals("quick")) {
            // Every VM configuration and compilation mode of the quick preset, but 3 iterations of
            // 200 ms per fork instead of 5: the 17 tests took 7.6 of the test run's 10 minutes
            // on the 2-core CI machine. The long mode (README) keeps jcstress's own counts.
            cmd.addAll(List.of("-iters", "3"));
        }
        Path log = results.resolve("jcstress-" + mode + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long limitMinutes = mode.equals("quick") ? 8 : 600;
        if (!p.waitFor(limitMinutes, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("jcstress (" + mode + ") did not finish within " + limitMinutes + " minutes; log: " + log);
        }
        String out = Files.readString(log);
        int exit = p.exitValue();
        String tail = out.length() > 6000 ? out.substring(out.length() - 6000) : out;
        assertTrue(out.contains("RUN RESULTS"), "jcstress printed no results (exit " + exit + "):\n" + tail);
        assertTrue(out.contains("Failed tests: No matches."), "jcstress found FORBIDDEN outcomes:\n" + tail);
        assertTrue(out.contains("Error tests: No matches."), "jcstress tests errored:\n" + tail);
        assertEquals(0, exit, "jcstress exited with " + exit + ":\n" + tail);
        // Every test in the generated list must have run: jcstress silently skips a test it
        // cannot schedule (for example more actors than CPUs).
        List<String> missing = new ArrayList<>();
        try (var in = JcstressQuickTest.class.getResourceAsStream("/META-INF/TestList")) {
            assertTrue(in != null, "META-INF/TestList missing: jcstress annotation processor did not run");
            for (String line : new String(in.readAllBytes()).split("\n")) {
                // Each line starts JCTEST<length>S<test name of that length>...
                Matcher m = Pattern.compile("^JCTEST(\\d+)S").matcher(line);
                if (m.find()) {
                    int len = Integer.parseInt(m.group(1));
                    String name = line.substring(m.end(), m.end() + len);
                    if (!Files.exists(results.resolve(name + ".html"))) {
                        missing.add(name);
                    }
                }
            }
        }
        assertTrue(missing.isEmpty(), "jcstress did not run: " + missing + "\n" + tail);
        System.out.println("jcstress " + mode + " passed; log at " + log + File.separator);
    }

}
