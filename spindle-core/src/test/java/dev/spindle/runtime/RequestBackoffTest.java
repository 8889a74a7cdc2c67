package dev.spindle.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestBackoffTest {

    @Test
    void aPieceThatRanFourTimesItsSearchPaidAndOpensNoWindow() {
        assertEquals(0L, RequestBackoff.quietNanos(1_000L, 4_000L));
        assertEquals(0L, RequestBackoff.quietNanos(1_000L, 1_000_000_000L));
    }

    @Test
    void aPieceFoundAtOnceAlwaysPays() {
        assertEquals(0L, RequestBackoff.quietNanos(0L, 0L));
        assertEquals(0L, RequestBackoff.quietNanos(-5L, 1L), "a clock that stepped back is no search");
    }

    @Test
    void aSmallerPieceOpensAWindowOfSixteenTimesItsSearch() {
        assertEquals(16_000L, RequestBackoff.quietNanos(1_000L, 3_999L));
        assertEquals(800L, RequestBackoff.quietNanos(50L, 0L));
    }

    @Test
    void aWindowIsCappedBelowTheTimeAWorkerSearchesBeforeItParks() {
        assertEquals(RequestBackoff.QUIET_CAP_NANOS, RequestBackoff.quietNanos(1_000_000L, 10L));
        assertEquals(RequestBackoff.QUIET_CAP_NANOS, RequestBackoff.quietNanos(Long.MAX_VALUE / 32, 0L));
        assertTrue(RequestBackoff.QUIET_CAP_NANOS < Worker.YIELD_NANOS,
                "a quiet window must end before its worker parks, or the request made before parking would be withheld");
    }
}
