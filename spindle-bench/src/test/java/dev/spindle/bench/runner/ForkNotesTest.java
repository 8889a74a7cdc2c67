package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** Forks pooled into one row keep their own medians and allocation, and the reports list those that disagree. */
class ForkNotesTest {

    /** One fork's measurement: {@code runs} runs of {@code ms} each, and the given bytes per future. */
    private static Measurement fork(String variant, double ms, double bytesPerFuture) {
        double futures = 1_000_000;
        Map<String, Double> counters = Double.isNaN(bytesPerFuture) ? Map.of()
                : Map.of("futures", futures, "alloc_bytes", bytesPerFuture * futures);
        return new Measurement("futures", "Knapsack", "test", variant, 1, "default", 3, ms, ms, ms, true, null,
                counters, null, false, new double[]{ms, ms, ms}, 1);
    }

    @Test
    void aMergedRowKeepsEachForksMedianAndAllocation() {
        Measurement m = Measurement.merge(List.of(fork("spindle", 460, 0), fork("spindle", 814, 80), fork("spindle", 470, 0)));
        assertEquals(3, m.forks());
        assertArrayEquals(new double[]{460, 814, 470}, m.forkMediansMs());
        assertArrayEquals(new double[]{0, 80, 0}, m.forkBytesPerFuture(), 1e-9);
        assertEquals(470, m.medianMs(), "the row's median pools every fork's runs");
        assertTrue(m.forksDisagree(1.10, 8));
    }

    /** A fork at two workers whose JVM measured {@code ceiling} after its runs. */
    private static Measurement parallelFork(double ms, double ceiling) {
        Measurement m = new Measurement("futures", "Fib", "test", "spindle", 2, "default", 3, ms, ms, ms, true, null,
                Map.of("futures", 1e6, "alloc_bytes", 0.0), null, false, new double[]{ms, ms, ms}, 1);
        return Double.isNaN(ceiling) ? m : m.withCeiling(ceiling);
    }

    @Test
    void aSlowForkIsListedWithTheMachineCeilingItsJvmMeasured(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Measurement m = Measurement.merge(List.of(parallelFork(57.6, 1.88), parallelFork(67.7, 1.41), parallelFork(58.9, Double.NaN)));
        assertArrayEquals(new double[]{1.88, 1.41, Double.NaN}, m.forkCeilings());
        Report r = new Report("test JDK", "2026-11-28T00:00:00Z", 2);
        r.add(m);
        assertEquals("- Fib spindle P=2: fork medians 57.6, 67.7, 58.9 ms; bytes per future 0.0, 0.0, 0.0;"
                + " machine ceilings 1.88, 1.41, -\n", ReportWriter.forkNotes(r));
        ReportWriter.writeJson(r, dir.resolve("results.json"));
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"fork_machine_ceilings\": [1.880, 1.410, null]"), json);
    }

    @Test
    void aJvmMeasuresTheCeilingForItsParallelRowsOnly() {
        List<Measurement> ms = Runner.withForkCeilings(List.of(fork("spindle", 100, 0), parallelFork(55, Double.NaN)),
                dev.spindle.bench.suite.Size.SMALL);
        assertTrue(Double.isNaN(ms.get(0).forkCeilings()[0]), "one worker: no ceiling");
        double c = ms.get(1).forkCeilings()[0];
        assertTrue(c > 0 && c < 2.5, "two workers: a ceiling between 0 and about 2, not " + c);
        assertEquals(55, ms.get(1).medianMs(), "the timings stay as measured");
    }

    @Test
    void forksAgreeWithinTheThresholds() {
        Measurement close = Measurement.merge(List.of(fork("spindle", 460, 0), fork("spindle", 500, 4)));
        assertFalse(close.forksDisagree(1.10, 8), "8.7% and 4 bytes apart");
        Measurement allocating = Measurement.merge(List.of(fork("spindle", 460, 0), fork("spindle", 470, 40)));
        assertTrue(allocating.forksDisagree(1.10, 8), "one fork allocates 40 bytes per future more");
        Measurement noFutures = Measurement.merge(List.of(fork("seq", 371, Double.NaN), fork("seq", 375, Double.NaN)));
        assertFalse(noFutures.forksDisagree(1.10, 8));
        assertFalse(fork("spindle", 460, 0).forksDisagree(1.10, 8), "one fork has nothing to disagree with");
    }

    @Test
    void theReportsListOnlyTheRowsWhoseForksDisagree(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Report r = new Report("test JDK", "2026-11-27T00:00:00Z", 2);
        r.add(Measurement.merge(List.of(fork("seq", 371, Double.NaN), fork("seq", 376, Double.NaN))));
        r.add(Measurement.merge(List.of(fork("spindle", 460, 0), fork("spindle", 814, 80), fork("spindle", 470, 0))));
        String notes = ReportWriter.forkNotes(r);
        assertEquals("- Knapsack spindle P=1: fork medians 460, 814, 470 ms; bytes per future 0.0, 80.0, 0.0\n", notes);
        assertTrue(ReportWriter.table(r).contains(notes), "the terminal table lists it");
        ReportWriter.writeMarkdown(r, dir.resolve("results.md"), "./spindle bench", "");
        assertTrue(Files.readString(dir.resolve("results.md")).contains(notes), "results.md lists it");
        ReportWriter.writeJson(r, dir.resolve("results.json"));
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"fork_medians_ms\": [460.000, 814.000, 470.000]"), json);
        assertTrue(json.contains("\"fork_bytes_per_future\": [null, null]"), "a row without futures: " + json);
    }
}
