package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The untouched-failure ledger's bound: what overflows is reported at once, each failure once, none lost. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UntouchedFailuresTest {
    /** A region for the report's handles: the test thread's own. */
    private static final ExposedFutures REGION = LatentStack.current().currentRegion();

    /** Adds {@code n} new failures to the ledger, each with a report's handle, appending their outcomes to {@code all}. */
    private static void addFailures(UntouchedFailures ledger, List<Outcome> all, int n, boolean observeAtOnce) {
        for (int k = 0; k < n; k++) {
            Outcome o = Outcome.failed(new IllegalStateException("failure " + all.size()));
            all.add(o);
            ledger.add(LazyFuture.view(REGION, all.size(), o), o);
            o.observed = observeAtOnce;                // touched right away, as most failures are
        }
    }

    /** A ledger with this bound whose handler appends to {@code reported}. */
    private static UntouchedFailures ledger(int limit, List<Throwable> reported) {
        UntouchedFailures ledger = new UntouchedFailures(limit);
        ledger.setHandler((f, ex) -> reported.add(ex));
        return ledger;
    }

    @Test
    void theOldestAreReportedWhenMoreThanTheLimitAreUnobserved() {
        List<Throwable> reported = new ArrayList<>();
        UntouchedFailures ledger = ledger(8, reported);
        List<Outcome> all = new ArrayList<>();
        addFailures(ledger, all, 8, false);
        assertEquals(List.of(), reported, "nothing is reported while the ledger holds at most its limit");
        addFailures(ledger, all, 1, false);
        // the ninth finds eight unobserved: the oldest four (down to half the limit) are reported now
        assertEquals(List.of(all.get(0).failure, all.get(1).failure, all.get(2).failure, all.get(3).failure), reported);
        assertTrue(ledger.size() <= 8, "the ledger holds " + ledger.size() + " entries, more than its limit of 8");
        for (int i = 0; i < 4; i++) {
            assertTrue(!all.get(i).observed, "failure " + i + " was marked observed by an early report: a touch or a scope"
                    + " would no longer raise it");
        }
        ledger.reportAll();
        List<Throwable> every = new ArrayList<>();
        for (Outcome o : all) {
            every.add(o.failure);
        }
        assertEquals(every, reported, "at close the rest, in order; each failure once");
    }

    @Test
    void observedFailuresMakeRoomAndAreNeverReported() {
        List<Throwable> reported = new ArrayList<>();
        UntouchedFailures ledger = ledger(8, reported);
        addFailures(ledger, new ArrayList<>(), 100, true);
        assertTrue(ledger.size() <= 8, "observed entries were not purged: " + ledger.size() + " held");
        ledger.reportAll();
        assertEquals(List.of(), reported);
    }

    @Test
    void noLimitKeepsEveryFailureUntilClose() {
        List<Throwable> reported = new ArrayList<>();
        UntouchedFailures ledger = ledger(0, reported);
        addFailures(ledger, new ArrayList<>(), 1000, false);
        assertEquals(0, reported.size());
        ledger.reportAll();
        assertEquals(1000, reported.size());
    }

    @Test
    void aLimitOfOneOrLessThanZeroIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new UntouchedFailures(1));
        assertTrue(e.getMessage().contains("not 1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new UntouchedFailures(-5));
        assertTrue(e.getMessage().contains("not -5"), e.getMessage());
    }

    /**
     * A pool that never closes keeps at most the default bound of failures nobody touched: a
     * worker that forgets eight thousand failing futures has the oldest reported while the pool
     * runs (under spawn=always they run after the task that made them, hence the wait), and at
     * close every failure has been reported exactly once.
     */
    @Test
    void aPoolReportsForgottenFailuresPastTheBoundWhileItRuns() throws Exception {
        int n = UntouchedFailures.DEFAULT_LIMIT * 2 + 100;
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        CountDownLatch pastTheBound = new CountDownLatch(n - UntouchedFailures.DEFAULT_LIMIT);
        SpindlePool pool = new SpindlePool(1);
        pool.setUntouchedFailureHandler((f, ex) -> {
            reported.add(ex);
            pastTheBound.countDown();
        });
        try {
            LazyFutureTest.onWorker(pool, () -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    Spindle.future(() -> {
                        throw new IllegalStateException("forgotten " + k);
                    });
                }
                return null;
            });
            assertTrue(pastTheBound.await(30, TimeUnit.SECONDS),
                    "only " + reported.size() + " of " + n + " forgotten failures were reported within 30 s while the pool ran;"
                            + " past the bound of " + UntouchedFailures.DEFAULT_LIMIT + " at least "
                            + (n - UntouchedFailures.DEFAULT_LIMIT) + " should have been");
            assertTrue(pool.untouchedFailures().size() <= UntouchedFailures.DEFAULT_LIMIT,
                    "the ledger holds " + pool.untouchedFailures().size() + " failures, past its bound of "
                            + UntouchedFailures.DEFAULT_LIMIT);
        } finally {
            pool.close();
        }
        assertEquals(n, reported.size(), "every forgotten failure is reported by the close");
        Map<Throwable, Boolean> distinct = new IdentityHashMap<>();
        for (Throwable t : reported) {
            distinct.put(t, Boolean.TRUE);
        }
        assertEquals(n, distinct.size(), "a failure was reported twice");
    }

    /**
     * A scope raises every failure its futures left untouched, even those the ledger reported
     * early because more than its bound were waiting.
     */
    @Test
    void aScopeRaisesFailuresTheLedgerReportedEarly() throws Exception {
        int n = UntouchedFailures.DEFAULT_LIMIT * 2 + 100;
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        SpindlePool pool = new SpindlePool(1);
        pool.setUntouchedFailureHandler((f, ex) -> reported.add(ex));
        try {
            IllegalStateException raised = LazyFutureTest.onWorker(pool, () -> {
                try {
                    Spindle.scope(s -> {
                        for (int i = 0; i < n; i++) {
                            int k = i;
                            s.future(() -> {
                                throw new IllegalStateException("in the scope " + k);
                            });
                        }
                    });
                } catch (IllegalStateException e) {
                    return e;
                }
                return null;
            });
            assertTrue(raised != null, "the scope raised none of its " + n + " untouched failures");
            assertEquals(n, 1 + raised.getSuppressed().length,
                    "the scope raised " + (1 + raised.getSuppressed().length) + " of its " + n + " untouched failures");
            if (SpawnMode.current() != SpawnMode.ALWAYS) {
                // run at their creation, each failure went into the ledger; under always the scope's
                // close runs them, and a failure its toucher ran is observed there, never in the ledger
                assertTrue(!reported.isEmpty(), "the ledger's bound was never reached: the test did not test it");
            }
        } finally {
            pool.close();
        }
    }
}
