package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Figure;
import dev.spindle.bench.suite.RunFigures;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Suites;
import dev.spindle.bench.suite.Target;
import dev.spindle.bench.suite.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/** The runner judges each issue's targets from the run's own medians, and says which it could not measure. */
class TargetTableTest {

    private static Measurement row(String bench, String variant, int workers, double ms, Map<String, Double> counters) {
        return new Measurement("futures", bench, "test", variant, workers, "default", 3, ms, ms, ms, true, null,
                counters, null, false, new double[]{ms, ms, ms}, 1);
    }

    private static Suite suite(List<Target> targets) {
        return new Suite("futures", "test", List.of(), targets);
    }

    @Test
    void aTargetIsMetOrMissedByTheRatioOfThisRunsMedians() {
        Report r = new Report("test JDK", "2026-11-27T00:00:00Z", 2);
        r.add(row("Fib", "seq", 1, 86.5, Map.of()));
        r.add(row("Fib", "spindle", 1, 152, Map.of("futures", 1e6, "alloc_bytes", 0.0)));
        r.add(row("Fib", "spindle", 2, 86.0, Map.of()));
        List<Target.Outcome> o = TargetTable.evaluate(r, List.of(suite(List.of(
                Target.t1OverTs(3, "Fib", "spindle", 2.0),
                Target.speedup(3, "Fib", "spindle", 2, 1.6),
                Target.atMost(3, "Fib: spindle bytes per future at P=1", Figure.bytesPerFuture("Fib", "spindle", 1), 32),
                Target.atLeast(3, "Fib: fjp-nocutoff T2 / spindle T2", Figure.ratio("Fib", "fjp-nocutoff", 2, "spindle", 2), 5)))));
        assertEquals(List.of("met", "missed", "met", "not measured"), o.stream().map(Target.Outcome::status).toList());
        assertEquals(152 / 86.5, o.get(0).reading().orElseThrow().value(), 1e-12);
        assertEquals("spindle P=1 152 / seq 86.5 ms", o.get(0).reading().orElseThrow().detail());
        assertEquals("Fib: spindle T1/Ts ≤ 2.00", o.get(0).target().describe());
        assertEquals("1.757", o.get(0).value());

        String text = TargetTable.text(o, Size.DEFAULT);
        assertTrue(text.startsWith("Targets: 3 measured, 2 met, 1 missed"), text);
        assertTrue(text.contains("#3  Fib: spindle Ts/T2 ≥ 1.60"), text);
        assertTrue(text.contains("1 target(s) of the suites run were not measured"), text);
        String md = TargetTable.markdown(o, Size.DEFAULT);
        assertTrue(md.contains("| #3 | Fib: spindle Ts/T2 ≥ 1.60 | 1.006 | **missed** | seq 86.5 / spindle P=2 86.0 ms |"), md);
    }

    @Test
    void boundsAreInclusiveExceptBelow() {
        Figure one = run -> java.util.Optional.of(new Figure.Reading(1.0, "one"));
        RunFigures none = new RunFigures() {
            @Override
            public OptionalDouble medianMs(String bench, String variant, int workers) {
                return OptionalDouble.empty();
            }

            @Override
            public OptionalDouble counter(String bench, String variant, int workers, String name) {
                return OptionalDouble.empty();
            }
        };
        assertTrue(Target.atMost(4, "x", one, 1.0).evaluate(none).met());
        assertTrue(Target.atLeast(4, "x", one, 1.0).evaluate(none).met());
        assertFalse(Target.below(4, "x", one, 1.0).evaluate(none).met());
        assertTrue(Target.below(4, "x", one, 1.01).evaluate(none).met());
    }

    @Test
    void aRowThatFailedIsNotRead() {
        Report r = new Report("test JDK", "2026-11-27T00:00:00Z", 2);
        r.add(row("Fib", "seq", 1, 86.5, Map.of()));
        r.add(new Measurement("futures", "Fib", "test", "spindle", 1, "default", 3, 10, 10, 10, false, "wrong answer",
                Map.of(), null, false, new double[]{10, 10, 10}, 1));
        Target.Outcome o = Target.t1OverTs(3, "Fib", "spindle", 2.0).evaluate(r.figures("futures"));
        assertFalse(o.measured(), "a row whose answer was wrong says nothing about a target");
    }

    @Test
    void aRunOfAnotherSizeIsNotJudged(@TempDir Path dir) throws Exception {
        Report r = new Report("test JDK", "2026-11-27T00:00:00Z", 2);
        r.add(row("Fib", "seq", 1, 1.0, Map.of()));
        r.add(row("Fib", "spindle", 1, 5.0, Map.of()));
        List<Target.Outcome> o = TargetTable.evaluate(r, List.of(suite(List.of(Target.t1OverTs(3, "Fib", "spindle", 2.0)))));
        assertEquals("Targets: not judged — they are set for --size default, and this run used small.\n",
                TargetTable.text(o, Size.SMALL));
        TargetTable.writeJson(o, Size.SMALL, dir.resolve("targets.json"));
        String json = Files.readString(dir.resolve("targets.json"));
        assertTrue(json.contains("\"status\": \"not judged: size small\""), json);
        TargetTable.writeJson(o, Size.DEFAULT, dir.resolve("targets.json"));
        json = Files.readString(dir.resolve("targets.json"));
        assertTrue(json.contains("\"target\": \"Fib: spindle T1/Ts ≤ 2.00\", \"limit\": 2.0, \"bound\": \"at_most\","
                + " \"status\": \"missed\", \"value\": 5.0000, \"from\": \"spindle P=1 5.00 / seq 1.00 ms\""), json);
    }

    @Test
    void aSuiteWithoutTargetsPrintsNothing() {
        Report r = new Report("test JDK", "2026-11-27T00:00:00Z", 2);
        List<Target.Outcome> o = TargetTable.evaluate(r, List.of(suite(List.of())));
        assertEquals("", TargetTable.text(o, Size.DEFAULT));
        assertEquals("", TargetTable.markdown(o, Size.DEFAULT));
    }

    /**
     * Every declared target reads only rows its suite has, and is measured when every row ran: a
     * misspelt benchmark or variant would otherwise leave a target silently "not measured".
     */
    @Test
    void everyTargetOfEverySuiteReadsRowsItsSuiteHas() {
        int targets = 0;
        for (String name : Suites.names()) {
            Suite s = Suites.get(name);
            Set<String> rows = new HashSet<>();
            for (Benchmark<?, ?> b : s.benchmarks()) {
                for (Variant<?, ?> v : b.variants()) {
                    rows.add(b.name() + "/" + v.name());
                }
            }
            List<String> unknown = new ArrayList<>();
            RunFigures everyRow = new RunFigures() {
                @Override
                public OptionalDouble medianMs(String bench, String variant, int workers) {
                    if (!rows.contains(bench + "/" + variant)) {
                        unknown.add(bench + "/" + variant);
                        return OptionalDouble.empty();
                    }
                    return OptionalDouble.of(10 + (bench + variant + workers).hashCode() % 7);
                }

                @Override
                public OptionalDouble counter(String bench, String variant, int workers, String counter) {
                    return medianMs(bench, variant, workers);
                }
            };
            for (Target t : s.targets()) {
                assertTrue(t.evaluate(everyRow).measured(), name + ": " + t.describe() + " read " + unknown);
                targets++;
            }
            assertEquals(List.of(), unknown, "suite " + name + " has targets reading rows it does not have");
        }
        assertEquals(24 + 16 + 19 + 11, targets, "issues #2, #3, #4 and #5 (its runner-measured part)");
    }
}
