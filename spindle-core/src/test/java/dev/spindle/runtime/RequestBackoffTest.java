package dev.spindle.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestBackoffTest {

    /** The rule on each case: {searched ns, ran ns, the quiet window it opens}. */
    @Test
    void aPieceOpensAWindowOfSixteenTimesItsSearchUnlessItRanFourTimesAsLong() {
        long cap = RequestBackoff.QUIET_CAP_NANOS;
        long[][] cases = {
                {1_000L, 4_000L, 0L},                 // ran four times its search: paid
                {1_000L, 1_000_000_000L, 0L},
                {0L, 0L, 0L},                         // found at once: always pays
                {-5L, 1L, 0L},                        // a clock that stepped back is no search
                {1_000L, 3_999L, 16_000L},            // did not pay: sixteen times the search
                {50L, 0L, 800L},
                {1_000_000L, 10L, cap},               // capped
                {Long.MAX_VALUE / 32, 0L, cap},
        };
        for (long[] c : cases) {
            assertEquals(c[2], RequestBackoff.quietNanos(c[0], c[1]), "searched " + c[0] + " ns, ran " + c[1] + " ns");
        }
    }

    @Test
    void aWindowEndsBeforeItsWorkerWouldPark() {
        assertTrue(RequestBackoff.QUIET_CAP_NANOS < Worker.YIELD_NANOS,
                "a quiet window must end before its worker parks, or the request made before parking would be withheld");
    }

    @Test
    void aWorkerKeepsNothingLatentForItsDepthOnlyWhenEveryOtherWorkerIsQuiet() {
        try (SpindlePool two = new SpindlePool(2); SpindlePool three = new SpindlePool(3)) {
            assertFalse(two.othersQuiet(), "nobody quiet");
            two.quietChanged(1);
            assertTrue(two.othersQuiet(), "the only other worker of two is quiet");
            two.quietChanged(-1);
            assertFalse(two.othersQuiet());
            three.quietChanged(1);
            assertFalse(three.othersQuiet(), "one of two others quiet: the other may still ask");
            three.quietChanged(1);
            assertTrue(three.othersQuiet());
            three.quietChanged(-2);
        }
    }

    @Test
    void everyQuietWindowIsUncountedOnceTheWorkersHaveNothingToDo() throws Exception {
        try (SpindlePool pool = new SpindlePool(2)) {
            // tiny futures in a loop: pieces too small to pay open windows on the thief
            for (int round = 0; round < 2_000; round++) {
                long sum = pool.invoke(new Task<Long>() {
                    @Override
                    protected Long compute() {
                        return tinyTree(6);
                    }
                });
                assertEquals(64L, sum);
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (pool.quietWorkers() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(0, pool.quietWorkers(), "a window outlived its worker's search: "
                    + pool.statistics().quietWindows() + " windows opened");
        }
    }

    /** 2^depth leaves, each a future of the level above. */
    private static long tinyTree(int depth) {
        if (depth == 0) {
            return 1L;
        }
        dev.spindle.future.LongFuture left = dev.spindle.Spindle.futureLong(() -> tinyTree(depth - 1));
        return tinyTree(depth - 1) + left.touch();
    }
}
