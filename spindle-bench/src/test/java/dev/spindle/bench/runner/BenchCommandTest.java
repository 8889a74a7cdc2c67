package dev.spindle.bench.runner;

import dev.spindle.bench.SpindleCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The runner end to end: the fj suite at --size small (the smoke test), and bad input. */
class BenchCommandTest {

    private static int run(ByteArrayOutputStream err, String... args) {
        PrintStream old = System.err;
        System.setErr(new PrintStream(err, true));
        try {
            return SpindleCli.execute(args);
        } finally {
            System.setErr(old);
        }
    }

    @Test
    void theReportedCommandIsWhatTheUserTyped() {
        // results.md read "./spindle bench bench --suite ..." when run through ./spindle.
        assertEquals("./spindle bench --suite fj --forks 1",
                BenchCommand.commandLine(java.util.List.of("bench", "--suite", "fj", "--forks", "1")));
        assertEquals("./spindle bench --suite fj", BenchCommand.commandLine(java.util.List.of("--suite", "fj")));
    }

    @Test
    void smallFjSuiteRunsVerifiesAndWritesReports(@TempDir Path out) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(err, "bench", "--suite", "fj", "--size", "small", "--workers", "1,2", "--runs", "2",
                "--warmup", "1", "--warmup-time", "100", "--forks", "2", "--out", out.toString(), "--no-progress",
                "--no-cpu-choice", "--no-calm-cpus");   // every thread left to the kernel; the loops and futures tests place one-thread rows' runs
        assertEquals(0, code, "runner failed:\n" + err);
        String json = Files.readString(out.resolve("results.json"));
        for (String bench : new String[]{"Fib", "Integrate", "Sort", "MM", "LU", "Jacobi"}) {
            for (String variant : new String[]{"seq", "spindle", "fjp", "threads"}) {
                assertTrue(json.contains("\"benchmark\": \"" + bench + "\"") && json.contains("\"variant\": \"" + variant + "\""),
                        bench + "/" + variant + " missing from results.json");
            }
        }
        // 6 benchmarks x (seq + spindle x2 + fjp x2 + threads) rows, all verified
        assertEquals(36, count(json, "\"suite\": \"fj\""));
        assertEquals(36, count(json, "\"verified\": true"));
        assertTrue(json.contains("\"forks\": 2"), "forks pooled");
        for (String key : new String[]{"\"workers\":", "\"size\": \"small\"", "\"runs\":", "\"median_ms\":",
                "\"min_ms\":", "\"max_ms\":", "\"stats\":", "\"steals\":", "\"warmup_runs\":", "\"times_ms\": ["}) {
            assertTrue(json.contains(key), key + " missing from results.json");
        }
        assertTrue(Files.readString(out.resolve("results.md")).contains("| Fib | spindle | 2 |"));
        byte[] png = Files.readAllBytes(out.resolve("speedup-fj.png"));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "speedup chart is not a PNG");
    }

    @Test
    void smallFuturesSuiteReportsBytesPerFutureAndPromotions(@TempDir Path out) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(err, "bench", "--suite", "futures", "--size", "small", "--workers", "1,2", "--runs", "2",
                "--warmup", "1", "--warmup-time", "0", "--forks", "1", "--bench", "Fib,Knapsack,TreeSum-1K",
                "--variant", "spindle,fjp-tuned,fjp-nocutoff,cf", "--out", out.toString(), "--no-progress",
                "--cpu-choice",           // the default, said
                "--no-calm-cpus");        // (its own test below: a wait per two-worker row would add up here)
        assertEquals(0, code, "runner failed:\n" + err);
        String json = Files.readString(out.resolve("results.json"));
        // 3 programs x (seq + 4 variants x 2 worker counts)
        assertEquals(27, count(json, "\"suite\": \"futures\""));
        assertEquals(27, count(json, "\"verified\": true"));
        assertEquals(6, count(json, "\"bytes_per_future\":"), "spindle rows report bytes per future");
        for (String key : new String[]{"\"futures\":", "\"futures_inline\":", "\"futures_promoted\":",
                "\"futures_stolen\":", "\"alloc_bytes\":"}) {
            assertTrue(json.contains(key), key + " missing from results.json");
        }
        assertTrue(Files.readString(out.resolve("results.md")).contains("B/future"));
        if (CpuChoice.available()) {
            // one-thread rows (seq, and the one-worker row of each of the four variants): each timed
            // run on the CPU the probe chose right before it; the two-worker rows left to the kernel
            assertEquals(3 * 5, count(json, "\"cpu_probe_ratio\":"), "one-thread rows carry their CPU probe");
            assertEquals(3 * 5, count(json, "\"cpu_slow_retakes\":"), "and how many runs their JVM took again");
            assertTrue(err.toString().contains("P=1  median") && err.toString().contains("[CPU "),
                    "a one-thread row's line names its CPU:\n" + err);
        }
    }

    @Test
    void byDefaultATwoWorkerRowTimesItsRunsWhileEveryCpuProbesCalm(@TempDir Path out) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(err, "bench", "--suite", "futures", "--size", "small", "--workers", "2", "--runs", "2",
                "--warmup", "1", "--warmup-time", "0", "--forks", "1", "--bench", "Fib", "--variant", "spindle",
                "--out", out.toString(), "--no-progress");
        assertEquals(0, code, "runner failed:\n" + err);
        String json = Files.readString(out.resolve("results.json"));
        assertEquals(2, count(json, "\"verified\": true"), "seq and spindle at two workers");
        if (CpuChoice.available()) {
            assertEquals(1, count(json, "\"cpu_calm_wait_ms\":"), "the two-worker row says how long it waited");
            assertEquals(2, count(json, "\"cpu_probe_ratio\":"), "seq's placed runs and the two-worker row's calm probes");
            assertTrue(err.toString().contains("P=2  median") && err.toString().contains("[calm CPUs: waited "),
                    "the two-worker row's line says what the guard did:\n" + err);
        } else {
            assertEquals(0, count(json, "\"cpu_calm_wait_ms\":"), "nothing to probe: nothing waits");
        }
    }

    @Test
    void smallLoopsSuiteVerifiesEveryVariantAndReportsBytesPerLoop(@TempDir Path out) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(err, "bench", "--suite", "loops", "--size", "small", "--workers", "1,2", "--runs", "1",
                "--warmup", "0", "--warmup-time", "0", "--forks", "1", "--bench", "Crypt,Jacobi,Skewed-random", "--out", out.toString(),
                "--no-progress", "--no-calm-cpus");
        assertEquals(0, code, "runner failed:\n" + err);
        String json = Files.readString(out.resolve("results.json"));
        if (CpuChoice.available()) {
            assertEquals(count(json, "\"workers\": 1,"), count(json, "\"cpu_probe_ratio\":"),
                    "by default every one-thread row's timed runs are placed, and no other row's");
        }
        // 3 programs x (seq + 8 variants x 2 worker counts)
        assertEquals(51, count(json, "\"suite\": \"loops\""));
        assertEquals(51, count(json, "\"verified\": true"));
        assertEquals(51, count(json, "\"bytes_per_loop\":"), "every row reports bytes per loop");
        assertTrue(json.contains("\"variant\": \"spin-team\""), "the spin-team baseline ran");
        assertTrue(Files.readString(out.resolve("results.md")).contains("B/loop"));
    }

    @Test
    void rotatedForksGoRoundTheBenchmarks(@TempDir Path out) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(err, "bench", "--suite", "loops", "--size", "small", "--workers", "2", "--runs", "1",
                "--warmup", "0", "--warmup-time", "0", "--forks", "2", "--rotate-benchmarks", "--bench", "Stress-40,Stress-64",
                "--variant", "spindle-auto", "--out", out.toString(), "--no-progress", "--no-cpu-choice", "--no-calm-cpus");
        assertEquals(0, code, "runner failed:\n" + err);
        String json = Files.readString(out.resolve("results.json"));
        // 2 programs x (seq + auto at 2 workers), each pooled over both forks
        assertEquals(4, count(json, "\"verified\": true"));
        assertEquals(0, count(json, "\"cpu_probe_ratio\":"), "--no-cpu-choice: seq's JVMs left to the kernel");
        assertFalse(err.toString().contains("[CPU "), err.toString());
        assertEquals(4, count(json, "\"forks\": 2"));
        // Each fork's measurement ends with "<benchmark> <variant> P=<p> median ..." on standard error:
        // with rotation the benchmarks alternate (40, 64, 40, 64); without, each one's forks come together.
        java.util.List<String> order = new java.util.ArrayList<>();
        for (String line : err.toString().split("\n")) {
            if (line.matches("Stress-\\d+\\s+spindle-auto\\s+P=2\\s+median.*")) {
                order.add(line.substring(0, line.indexOf(' ')));
            }
        }
        assertEquals(java.util.List.of("Stress-40", "Stress-64", "Stress-40", "Stress-64"), order, "fork order:\n" + err);
    }

    @Test
    void smallDirectiveSuiteRunsTheWovenAndTheUnwovenClass(@TempDir Path out) throws Exception {
        assertTrue(java.util.Arrays.stream(dev.spindle.bench.futures.DirectiveFib.class.getDeclaredMethods())
                .anyMatch(m -> m.isSynthetic() && m.getName().startsWith("spindle$")),
                "spindle-maven-plugin did not weave the directive programs at process-classes");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = run(err, "bench", "--suite", "directive", "--size", "small", "--workers", "1,2", "--runs", "1",
                "--warmup", "0", "--warmup-time", "0", "--no-fork", "--bench", "Fib,Quicksort,TreeSum-1K", "--out", out.toString(),
                "--no-progress", "--no-calm-cpus");
        assertEquals(0, code, "runner failed:\n" + err);
        String json = Files.readString(out.resolve("results.json"));
        // 3 programs x (seq + seq-base-case + 3 variants x 2 worker counts): all three have a base
        // case the weaver tests at the call, and the sequential rewrite runs on one thread
        assertEquals(24, count(json, "\"suite\": \"directive\""));
        assertEquals(24, count(json, "\"verified\": true"));
        assertEquals(3, count(json, "\"variant\": \"seq-base-case\", \"workers\": 1,"), json);
        assertEquals(12, count(json, "\"bytes_per_future\":"), "spindle-directive and spindle-object report bytes per future");
    }

    @Test
    void badWorkerCountIsNamed() {
        assertRejected("0 is outside 1..32767", "--suite", "fj", "--workers", "1,0");
        assertRejected("'two' is not an integer", "--suite", "fj", "--workers", "two");
    }

    @Test
    void unknownSuiteAndSizeAreNamed() {
        String err = assertRejected("unknown suite 'nope'", "--suite", "nope");
        assertTrue(err.contains("fj"), err);
        assertRejected("'huge'", "--suite", "fj", "--size", "huge");
        assertRejected("--runs must be at least 1, was 0", "--suite", "fj", "--runs", "0");
        assertRejected("--max-warmup must be at least --warmup (3), was 2", "--suite", "fj", "--warmup", "3", "--max-warmup", "2");
        assertRejected("--warmup-time must be between 0 and 3600000 ms, was -1", "--suite", "fj", "--warmup-time", "-1");
        assertRejected("was 9223372036854775807", "--suite", "fj", "--warmup-time", "9223372036854775807");
        assertRejected("--rotate-benchmarks needs forked JVMs and --forks 2 or more, was --forks 1", "--suite", "fj",
                "--rotate-benchmarks", "--forks", "1");
        assertRejected("--rotate-benchmarks needs forked JVMs and --forks 2 or more, was --no-fork", "--suite", "fj",
                "--rotate-benchmarks", "--no-fork");
        assertRejected("would undo --set spindle.bench.pin=true", "--suite", "fj", "--cpu-choice",
                "--set", "spindle.bench.pin=true");
    }

    /** Runs {@code bench} with {@code options}; requires exit code 2 and {@code message} on standard error. */
    private static String assertRejected(String message, String... options) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("bench"), java.util.Arrays.stream(options))
                .toArray(String[]::new);
        assertEquals(2, run(err, args), String.join(" ", args) + " was accepted");
        assertTrue(err.toString().contains(message), err.toString());
        return err.toString();
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
