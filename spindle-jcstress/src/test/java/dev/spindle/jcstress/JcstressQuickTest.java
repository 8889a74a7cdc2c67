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
 * fails if any test reports a FORBIDDEN outcome or an error, or did not run. {@code jcstress.tests}
 * (a regular expression jcstress matches against test names, default every test of this module)
 * selects the protocols a long run covers.
 */
class JcstressQuickTest {

    @Test
    void allProtocolsHoldUnderJcstress() throws Exception {
        String mode = System.getProperty("jcstress.mode", "quick");
        String tests = System.getProperty("jcstress.tests", "dev\\.spindle\\..*");
        Pattern selected = Pattern.compile(tests);
        Path results = Path.of(System.getProperty("jcstress.results", "target/jcstress-results"));
        Files.createDirectories(results);
        // A report left by an earlier run must not stand for a test this run skipped.
        try (var old = Files.newDirectoryStream(results, "*.html")) {
            for (Path f : old) {
                Files.delete(f);
            }
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                "org.openjdk.jcstress.Main", "-m", mode, "-r", results.toString(), "-t", tests));
        if (mode.equals("quick")) {
            // The quick preset's VM configurations with the compilation mode unified across the
            // actors (C2, C2 with the C2 randomizers, C1, interpreter: 4 forks per test), 3
            // iterations of 200 ms per fork instead of 5, and no heap pre-touch. With split
            // per-actor modes too (14 forks per test) the 22 tests' 308 forks took 8.5 minutes on
            // 2026-11-26's 2-core Zen 1 CI machine, and 6.8 with 2 iterations of 150 ms: about
            // 1.1 s of each fork is the JVM's start, which no option removes, and the whole test
            // run must stay under 10 minutes. The long modes (README) run the split modes and
            // jcstress's own counts.
            cmd.addAll(List.of("-iters", "3", "-sc", "false", "-pth", "false"));
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
                    if (selected.matcher(name).find() && !Files.exists(results.resolve(name + ".html"))) {
                        missing.add(name);
                    }
                }
            }
        }
        assertTrue(missing.isEmpty(), "jcstress did not run: " + missing + "\n" + tail);
        System.out.println("jcstress " + mode + " passed; log at " + log + File.separator);
    }

}
