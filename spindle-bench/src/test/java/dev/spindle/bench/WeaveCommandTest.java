package dev.spindle.bench;

import dev.spindle.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./spindle weave} as a user types it, through {@link SpindleCli}: its options reach the
 * weaver. (Until 2026-11-26 picocli rejected {@code --out} with "Unknown options" and only the
 * in-place form worked.)
 */
class WeaveCommandTest {

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = SpindleCli.execute(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /** Compiles a class with one {@code @Future} variable into {@code dir}; returns its class file. */
    private static Path compileSample(Path src, Path dir) throws Exception {
        Files.writeString(src.resolve("Sample.java"), """
                package sample;
                public class Sample {
                    static int fib(int n) {
                        if (n < 2) return n;
                        @dev.spindle.Future int a = fib(n - 1);
                        int b = fib(n - 2);
                        return a + b;
                    }
                }
                """);
        String core = Path.of(Future.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, new PrintStream(err), "-d", dir.toString(),
                "-cp", core, src.resolve("Sample.java").toString());
        assertEquals(0, rc, "javac failed:\n" + err);
        return dir.resolve("sample/Sample.class");
    }

    @Test
    void weavesIntoTheOutputDirectoryAndLeavesTheInputAsItWas(@TempDir Path src, @TempDir Path in, @TempDir Path out)
            throws Exception {
        Path plain = compileSample(src, in);
        byte[] before = Files.readAllBytes(plain);
        Run r = run("weave", in.toString(), "--out", out.toString(), "--classpath", in + File.pathSeparator + src);
        assertEquals(0, r.code(), "weave failed:\n" + r.out() + r.err());
        assertTrue(r.out().contains("woven    sample.Sample.fib"), "report names the woven method:\n" + r.out());
        assertTrue(r.out().contains("1 method(s), 1 potential future(s)"), r.out());
        assertArrayEquals(before, Files.readAllBytes(plain), "the input was changed");
        byte[] woven = Files.readAllBytes(out.resolve("sample/Sample.class"));
        assertFalse(Arrays.equals(before, woven), "the output is not woven");

        Run again = run("weave", out.toString(), "-o", out.resolve("again").toString());
        assertEquals(0, again.code(), again.out() + again.err());
        assertArrayEquals(woven, Files.readAllBytes(out.resolve("again/sample/Sample.class")), "weaving twice changed the bytes");
    }

    @Test
    void weavesInPlace(@TempDir Path src, @TempDir Path in) throws Exception {
        Path plain = compileSample(src, in);
        byte[] before = Files.readAllBytes(plain);
        Run r = run("weave", in.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("(in place)"), r.out());
        assertFalse(Arrays.equals(before, Files.readAllBytes(plain)), "not woven in place");
    }

    @Test
    void badArgumentsAreNamed(@TempDir Path in) {
        Run missing = run("weave");
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("DIR|JAR"), missing.err());

        Run unknown = run("weave", in.toString(), "--outt", "x");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("--outt"), unknown.err());

        Run noSuchInput = run("weave", in.resolve("nowhere").toString());
        assertEquals(2, noSuchInput.code(), noSuchInput.out() + noSuchInput.err());
        assertTrue(noSuchInput.err().contains("nowhere"), noSuchInput.err());
    }
}
