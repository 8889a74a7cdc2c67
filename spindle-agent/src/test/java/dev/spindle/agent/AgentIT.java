package dev.spindle.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end: a small application compiled here runs under {@code java -javaagent:spindle-agent.jar}
 * (the shaded jar of this module's package phase) in a fresh JVM; its woven methods are found
 * by reflection, its results are those of the serial code, and an unsupported method is left
 * unwoven with a warning.
 */
class AgentIT {
    private static final String APP = """
            package app;

            import dev.spindle.Future;

            public class Main {
                static long fib(int n) {
                    if (n < 2) return n;
                    @Future long a = fib(n - 1);
                    long b = fib(n - 2);
                    return a + b;
                }
                static int unsupported(int k) {
                    @Future int x = k * 2;
                    return x;
                }
                public static void main(String[] args) {
                    boolean woven = false;
                    for (var m : Main.class.getDeclaredMethods()) {
                        woven |= m.getName().startsWith("spindle$") && m.isSynthetic();
                    }
                    System.out.println("woven=" + woven);
                    System.out.println("fib=" + fib(27));
                    System.out.println("unsupported=" + unsupported(21));
                }
            }
            """;

    @Test
    void theAgentWeavesAtClassLoad(@TempDir Path dir) throws Exception {
        Path agent = Path.of(System.getProperty("spindle.agent.jar", "target/spindle-agent.jar"));
        assertTrue(Files.isRegularFile(agent), "no agent jar at " + agent + " (run mvn package first)");
        Path src = dir.resolve("src/app/Main.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, APP);
        Path classes = dir.resolve("classes");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, new PrintStream(err),
                "--release", "21", "-d", classes.toString(), "-cp", agent.toString(), src.toString());
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));

        String out = run(List.of("-javaagent:" + agent + "=verbose", "-cp", classes.toString(), "app.Main"));
        assertTrue(out.contains("woven=true"), out);
        assertTrue(out.contains("fib=196418"), out);
        assertTrue(out.contains("unsupported=42"), out);
        assertTrue(out.contains("spindle-agent: woven app.Main.fib(I)J: 1 @Future variable, 1 potential future"), out);
        assertTrue(out.contains("spindle-agent: warning: left unwoven: app.Main.unsupported(I)I (line 13): the value "
                + "assigned to @Future variable in local slot 1 is an arithmetic expression, not a method call"), out);

        String plain = run(List.of("-cp", classes + java.io.File.pathSeparator + agent, "app.Main"));
        assertTrue(plain.contains("woven=false"), plain);
        assertTrue(plain.contains("fib=196418"), plain);
    }

    private static String run(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the agent's JVM did not exit within 120 s: " + cmd);
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }
}
