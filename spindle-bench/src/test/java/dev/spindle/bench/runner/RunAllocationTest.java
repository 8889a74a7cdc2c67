package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Variant;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bytes a row reports are those its variant allocates while it runs, not the harness's fresh
 * copy of the input made before each run (Quicksort's 64 MB array read as 3.2 bytes per future).
 */
class RunAllocationTest {
    /** The fresh copy each run gets: far above what the variant and any other thread allocate. */
    private static final int COPY = 8 << 20;
    /** What the variant allocates per run: a long[4096], 32 KB and its header. */
    private static final int OWN = 4096;

    /** A benchmark whose input is copied fresh (COPY bytes) and whose variant allocates OWN longs per run. */
    private static final class CopiedInput implements Benchmark<byte[], Integer> {
        static volatile long[] sink;

        @Override
        public String name() {
            return "CopiedInput";
        }

        @Override
        public byte[] prepare(Size size) {
            return new byte[COPY];
        }

        @Override
        public byte[] fresh(byte[] input) {
            return input.clone();
        }

        @Override
        public List<Variant<byte[], Integer>> variants() {
            return List.of(Variant.of("seq", false, false, workers -> in -> {
                sink = new long[OWN];
                return in.length;
            }));
        }

        @Override
        public String mismatch(Integer expected, Integer actual) {
            return expected.equals(actual) ? null : "expected " + expected + ", got " + actual;
        }

        @Override
        public String describe(Size size) {
            return "8 MB input copied before each run";
        }
    }

    @Test
    void rowCountsTheRunsAllocationNotTheFreshCopy() {
        CopiedInput b = new CopiedInput();
        Suite suite = new Suite("copied", "test", List.of(b));
        int runs = 4;
        Runner runner = new Runner(Size.SMALL, new int[]{1}, runs, new Warmup(2, 0L, 2),
                Progress.child(new PrintStream(OutputStream.nullOutputStream())), null, false);
        Measurement m = runner.measure(suite, b, b.variant("seq"), 1, b.prepare(Size.SMALL), new Object[1]);

        assertEquals(null, m.error(), "the row ran");
        double perRun = m.counters().get("alloc_bytes");
        assertTrue(perRun >= OWN * 8L,
                "the variant's own long[" + OWN + "] must be counted: " + perRun + " bytes per run");
        assertTrue(perRun < COPY / 4.0,
                "the " + COPY + "-byte fresh copy made before each run must not be counted: " + perRun + " bytes per run");
    }
}
