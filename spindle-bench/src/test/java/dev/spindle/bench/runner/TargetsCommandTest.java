package dev.spindle.bench.runner;

import dev.spindle.bench.SpindleCli;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suites;
import dev.spindle.bench.suite.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Saved runs are judged again by the same targets, one run or several together. */
class TargetsCommandTest {

    private static Measurement row(String bench, String variant, int workers, double ms) {
        return new Measurement("directive", bench, "test", variant, workers, "default", 3, ms, ms, ms, true, null,
                Map.of("futures", 1e6, "alloc_bytes", 0.0), null, false, new double[]{ms, ms, ms}, 1);
    }

    /** A saved directive run whose FFT T1/Ts is {@code t1 / 100}. */
    private static Path saved(Path dir, String name, double t1) throws Exception {
        Report r = new Report("test JDK", "2026-11-27T00:0" + name.length() + ":00Z", 2);
        r.add(row("FFT", "seq", 1, 100));
        r.add(row("FFT", "spindle-directive", 1, t1));
        r.add(new Measurement("directive", "FFT", "test", "fjp-tuned", 2, "default", 0, Double.NaN, Double.NaN, Double.NaN,
                false, null, Map.of(), "did not finish", true, new double[0], 1));
        Path d = Files.createDirectories(dir.resolve(name));
        ReportWriter.writeJson(r, d.resolve("results.json"));
        return d;
    }

    private static String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, SpindleCli.execute(args), "exit code");
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aSavedRunReadsBackAsTheRowsItWasWrittenFrom(@TempDir Path dir) throws Exception {
        Report r = TargetsCommand.load(saved(dir, "a", 102).resolve("results.json"));
        assertEquals(3, r.rows().size());
        Measurement m = r.rows().get(1);
        assertEquals(List.of("directive", "FFT", "spindle-directive", 1, "default", 102.0, true),
                List.of(m.suite(), m.benchmark(), m.variant(), m.workers(), m.size(), m.medianMs(), m.verified()));
        assertEquals(1e6, m.counters().get("futures"));
        assertEquals("did not finish", r.rows().get(2).error(), "a row that did not finish stays one");
        List<Target.Outcome> o = TargetTable.evaluate(r, List.of(Suites.get("directive")));
        Target.Outcome fft = o.stream().filter(x -> x.target().describe().equals("FFT: spindle-directive T1/Ts ≤ 1.03"))
                .findFirst().orElseThrow();
        assertEquals("met", fft.status());
        assertTrue(o.stream().filter(x -> x.target().describe().startsWith("FFT: spindle-directive T2"))
                .noneMatch(Target.Outcome::measured), "the unfinished fjp-tuned row is not read");
    }

    @Test
    void oneRunPrintsItsTable(@TempDir Path dir) throws Exception {
        String out = run("targets", saved(dir, "a", 102).toString());
        assertTrue(out.contains("Targets: 1 measured, 1 met, 0 missed"), out);
        assertTrue(out.contains("#4  FFT: spindle-directive T1/Ts ≤ 1.03      1.02  met"), out);
    }

    @Test
    void severalRunsGiveEachTargetsFiguresTheirMedianAndHowOftenItWasMet(@TempDir Path dir) throws Exception {
        String out = run("targets", saved(dir, "a", 102).toString(), saved(dir, "bb", 105.4).resolve("results.json").toString(),
                saved(dir, "ccc", 99).toString());
        assertTrue(out.startsWith("Targets over 3 runs:\n"), out);
        assertTrue(out.contains("#4  FFT: spindle-directive T1/Ts ≤ 1.03   1.02  1.054*  0.99    median 1.02 (met), met in 2 of 3"), out);
        assertFalse(out.contains("T2 / fjp-tuned"), "a target no run measured is left out: " + out);
    }

    @Test
    void markdownGivesTheSameFiguresAsATable(@TempDir Path dir) throws Exception {
        String several = run("targets", "--markdown", saved(dir, "a", 102).toString(), saved(dir, "bb", 105.4).toString(),
                saved(dir, "ccc", 99).toString());
        assertTrue(several.startsWith("Targets over 3 runs (**bold** = missed in that run; - = not measured):"), several);
        assertTrue(several.contains("| issue | target | run 1 | run 2 | run 3 | median | met in |\n|---|---|---:|---:|---:|---:|---:|\n"),
                several);
        assertTrue(several.contains("| #4 | FFT: spindle-directive T1/Ts ≤ 1.03 | 1.02 | **1.054** | 0.99 | 1.02 | 2 of 3 |"), several);
        String missedMedian = run("targets", "--markdown", saved(dir, "d", 104).toString(), saved(dir, "ee", 105).toString());
        assertTrue(missedMedian.contains("| **1.04** | **1.05** | **1.045** | 0 of 2 |"), missedMedian);
        String one = run("targets", "--markdown", saved(dir, "f", 102).toString());
        assertTrue(one.contains("| #4 | FFT: spindle-directive T1/Ts ≤ 1.03 | 1.02 | met | spindle-directive P=1 102 / seq 100 ms |"), one);
    }

    @Test
    void badInputNamesTheFileAndWhatIsWrong(@TempDir Path dir) throws Exception {
        assertEquals(2, SpindleCli.execute("targets", dir.resolve("missing").toString()));
        Path bad = Files.writeString(dir.resolve("bad.json"), "[{\"suite\": \"fj\",]");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TargetsCommand.load(bad));
        assertEquals("JSON: expected a member name at offset 16, found ']'", e.getMessage());
        Path notRows = Files.writeString(dir.resolve("other.json"), "{\"a\": 1}");
        e = assertThrows(IllegalArgumentException.class, () -> TargetsCommand.load(notRows));
        assertTrue(e.getMessage().startsWith("not a results.json of ./spindle bench"), e.getMessage());
        assertEquals(2, SpindleCli.execute("targets", notRows.toString()));
    }

    @Test
    void theReaderTakesWhatTheWriterWrites() {
        Object v = JsonReader.parse(" {\"a\": [1, -2.5e3, null, true, false], \"b\": \"q\\\"\\\\\\n\\u00e9\", \"c\": {}} ");
        assertEquals(Map.of("a", java.util.Arrays.asList(1.0, -2500.0, null, true, false), "b", "q\"\\\né", "c", Map.of()), v);
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[1] 2"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("\"open"));
        assertThrows(IllegalArgumentException.class, () -> JsonReader.parse("[1,]"));
    }

    @Test
    void aRunOfAnotherSizeIsNotJudged(@TempDir Path dir) throws Exception {
        Report r = new Report("test JDK", "2026-11-27T00:00:00Z", 2);
        r.add(new Measurement("fj", "Fib", "test", "seq", 1, "small", 3, 1, 1, 1, true, null, Map.of(), null, false,
                new double[]{1, 1, 1}, 1));
        ReportWriter.writeJson(r, dir.resolve("results.json"));
        String out = run("targets", dir.toString());
        assertTrue(out.contains("not judged — the targets are set for size default, this run has [small]"), out);
        assertEquals(Size.DEFAULT.label(), "default");
    }
}
