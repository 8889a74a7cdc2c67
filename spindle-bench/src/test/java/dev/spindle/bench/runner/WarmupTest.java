package dev.spindle.bench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The warm-up policy: a least count, then more runs only while the JIT compiles, within bounds. */
class WarmupTest {
    private static final long RUN_NS = 50_000_000L;          // a 50 ms run

    @Test
    void theLeastCountIsAlwaysMadeWhateverTheJitDoes() {
        Warmup w = new Warmup(2, 0L, 30);
        assertTrue(w.another(0, 0, -1, 0, false));
        assertTrue(w.another(1, RUN_NS, 0, RUN_NS, false));
        assertTrue(w.another(1, RUN_NS, -1, RUN_NS, false), "an unknown compilation time does not cut the least count");
    }

    @Test
    void afterTheLeastCountRunsAreAddedOnlyWhileTheJitCompiles() {
        Warmup w = new Warmup(2, 0L, 30);
        assertTrue(w.another(2, RUN_NS, 40, 2 * RUN_NS, false), "40 ms of compilation in a 50 ms run is not quiet");
        assertFalse(w.another(2, RUN_NS, Warmup.QUIET_MS, 2 * RUN_NS, false), "compilation at the quiet threshold");
        assertFalse(w.another(2, 10L * RUN_NS, 4, 2 * RUN_NS, false), "4 ms in a 500 ms run is under 1%");
        assertFalse(w.another(2, RUN_NS, -1, 2 * RUN_NS, false), "a JVM that does not report compilation time gets the least count");
    }

    @Test
    void aCompilationStillUnderWayIsNotQuiet() {
        Warmup w = new Warmup(2, 1_000_000_000L, 200);
        assertTrue(w.another(20, RUN_NS, 0, 20 * RUN_NS, true), "no compilation ended, but one is under way");
        assertTrue(w.another(20, RUN_NS, -1, 20 * RUN_NS, true), "the queue decides where the time is unknown");
        assertFalse(new Warmup(2, 0L, 30).another(30, RUN_NS, 0, 30 * RUN_NS, true), "the most count bounds it");
        assertFalse(new Warmup(2, 0L, 30).another(10, RUN_NS, 0, Warmup.BUDGET_NANOS, true), "the time budget bounds it");
    }

    @Test
    void theCompilerQueueNamesAMethodOrIsEmpty() {
        String busy = "Current compiles: \nC2 CompilerThread0  1818       4       a.B::step (891 bytes)\n\n"
                + "C1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n";
        String queued = "Current compiles: \n\nC1 compile queue:\n1790 3 a.B::equal (23 bytes)\n\nC2 compile queue:\nEmpty\n";
        String idle = "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n";
        assertTrue(CompilerQueue.listsMethod(busy));
        assertTrue(CompilerQueue.listsMethod(queued));
        assertFalse(CompilerQueue.listsMethod(idle));
    }

    @Test
    void aHotSpotJvmOffersItsCompilerQueue() {
        String vm = System.getProperty("java.vm.name", "");
        if (vm.contains("HotSpot") || vm.contains("OpenJDK")) {
            assertTrue(CompilerQueue.available(), "Compiler.queue is not reachable on " + vm
                    + ": the warm-up would fall back to finished compilations only");
        } else {
            assertFalse(CompilerQueue.busy(), "a JVM without the command must read as idle, on " + vm);
        }
    }

    @Test
    void theMostCountAndTheTimeBudgetStopTheWarmUp() {
        assertFalse(new Warmup(2, 0L, 5).another(5, RUN_NS, 40, 5 * RUN_NS, false));
        assertTrue(new Warmup(2, 0L, 5).another(4, RUN_NS, 40, 4 * RUN_NS, false));
        assertFalse(new Warmup(2, 0L, 30).another(10, RUN_NS, 40, Warmup.BUDGET_NANOS, false));
        assertFalse(new Warmup(2, 0L, 2).another(2, RUN_NS, 40, 2 * RUN_NS, false), "max equal to min is a fixed count");
    }

    @Test
    void theLeastTimeIsSpentEvenWhenTheJitLooksQuiet() {
        Warmup w = new Warmup(2, 1_000_000_000L, 200);
        assertTrue(w.another(2, RUN_NS, 0, 2 * RUN_NS, false), "100 ms of a least second spent");
        assertTrue(w.another(19, RUN_NS, -1, 19 * RUN_NS, false), "the least time does not need the JIT's figures");
        assertFalse(w.another(20, RUN_NS, 0, 20 * RUN_NS, false), "a second spent and the JIT quiet");
        assertTrue(w.another(20, RUN_NS, 40, 20 * RUN_NS, false), "a second spent, the JIT still compiling");
        assertFalse(new Warmup(2, 1_000_000_000L, 10).another(10, RUN_NS, 0, 10 * RUN_NS, false), "the most count bounds the least time");
    }

    @Test
    void aProgramsOwnCountIsMadePastTheMostCountAndTheBudget() {
        Warmup w = new Warmup(2, 1_000_000_000L, 100).forProgram(200);
        assertEquals(200, w.jitRuns());
        assertTrue(w.another(150, RUN_NS, 0, Warmup.BUDGET_NANOS, false), "run 151 of a program's 200: past most and budget");
        assertFalse(w.another(200, RUN_NS, 0, 200 * RUN_NS, false), "200 made, the JIT quiet");
        assertTrue(new Warmup(2, 1_000_000_000L, 300).forProgram(200).another(200, RUN_NS, 40, 200 * RUN_NS, false),
                "after the program's count, the JIT rule still adds runs");
        assertSame(w, w.forProgram(50), "a smaller count changes nothing");
    }

    @Test
    void aFixedCountIgnoresTheProgramsOwnCount() {
        Warmup fixed = new Warmup(3, 0L, 3);
        assertSame(fixed, fixed.forProgram(200), "--warmup-time 0 means exactly --warmup runs");
        assertFalse(fixed.forProgram(200).another(3, RUN_NS, 40, 3 * RUN_NS, true));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Warmup(1, 0L, 3, -7));
        assertTrue(e.getMessage().contains("-7"), e.getMessage());
    }

    @Test
    void aTimedRunWithTheCompilerInItStartsTimingAgain() {
        Warmup w = new Warmup(2, 1_000_000_000L, 200);
        long run = 6_000_000L;                                      // a 6-ms run, as Stress-40's
        assertTrue(w.restartsTiming(run, 5, 0, 2_000_000_000L), "5 ms of compilation in a 6-ms run");
        assertFalse(w.restartsTiming(run, Warmup.QUIET_MS, 0, 2_000_000_000L), "at the quiet threshold");
        assertFalse(w.restartsTiming(10L * RUN_NS, 4, 0, 2_000_000_000L), "4 ms in a 500-ms run is under 1%");
        assertFalse(w.restartsTiming(run, -1, 0, 2_000_000_000L), "a JVM that does not report compilation time");
        assertFalse(w.restartsTiming(run, 5, Warmup.MAX_RESTARTS, 2_000_000_000L), "the restarts are bounded");
        assertFalse(w.restartsTiming(run, 5, 0, Warmup.BUDGET_NANOS - run), "and so is the warm-up's time");
        assertFalse(new Warmup(5, 0L, 5).restartsTiming(run, 5, 0, 0), "a fixed count times what it gets");
    }

    @Test
    void noWarmUpMeansNone() {
        assertFalse(new Warmup(0, 0L, 30).another(0, 0, -1, 0, false), "--warmup 0 measures the first run");
    }

    @Test
    void badBoundsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Warmup(-1, 0L, 3));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Warmup(1, -5L, 3));
        assertTrue(e.getMessage().contains("-5"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Warmup(4, 0L, 3));
        assertTrue(e.getMessage().contains("(3)") && e.getMessage().contains("(4)"), e.getMessage());
    }

    @Test
    void compilationTimeIsTheJvmsOwnOrUnknown() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        long before = Warmup.jitMillis();
        if (jit != null && jit.isCompilationTimeMonitoringSupported()) {
            assertTrue(before >= 0, "compilation time " + before);
            assertTrue(Warmup.jitMillis() >= before, "compilation time went backwards");
        } else {
            assertEquals(-1, before, "a JVM that does not report compilation time gives -1");
        }
    }
}
