package dev.spindle.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
