package dev.spindle.future;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The room a frame lends to its deferred call when the call is made at its read
 * ({@code LatentStack.lendRoomForRead}), driven through the interface woven code uses
 * ({@link FutureCall#begin}, {@link FutureCall#submit}, {@link FutureCall#touchLong}) on one worker
 * of a pool of two while the other worker is held busy — so that nobody asks for work, nobody is
 * parked, and every deferred call stays latent until its read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LentRoomTest {

    /** A body that reports the room of the worker running it. */
    private static final FutureCallBody ROOM = call -> call.resultLong(((Worker) Thread.currentThread()).deferRoom());

    private static FutureCall defer(FutureCallBody body) {
        FutureCall c = assertInstanceOf(FutureCall.class, FutureCall.begin(body), "a worker with room did not defer the call");
        c.submit();
        return c;
    }

    private static int room() {
        return ((Worker) Thread.currentThread()).deferRoom();
    }

    @Test
    void theLastGivableCallRunsOnItsFramesRoom() throws Exception {
        onLoneWorker(full -> {
            FutureCall c = defer(ROOM);
            assertEquals(full - 1, room(), "the deferring frame took one unit of room");
            assertEquals(full, FutureCall.touchLong(c), "the call made at its read, the last givable one, ran without its frame's room");
            assertEquals(full, room(), "the room after the read");
        });
    }

    @Test
    void aCallWithAnOlderGivableCallBelowRunsWithoutItsFramesRoom() throws Exception {
        onLoneWorker(full -> {
            FutureCall older = defer(ROOM);
            FutureCall newer = defer(ROOM);
            assertEquals(full - 2, FutureCall.touchLong(newer), "an older call was still there to give, yet the newer one got room");
            assertEquals(full - 1, room(), "the room between the reads");
            assertEquals(full, FutureCall.touchLong(older), "the older call, now the last givable one, did not get its frame's room");
            assertEquals(full, room(), "the room after both reads");
        });
    }

    @Test
    void aCallOnLentRoomDoesNotLendAgain() throws Exception {
        onLoneWorker(full -> {
            FutureCall outer = defer(call -> {
                long atEntry = room();
                FutureCall inner = defer(ROOM);
                long inside = FutureCall.touchLong(inner);
                call.resultLong(atEntry * 100 + inside);
            });
            assertEquals(full * 100L + full - 1, FutureCall.touchLong(outer),
                    "entry room * 100 + the inner call's room: the inner call, the last givable one, ran on lent room inside a call on lent room");
            assertEquals(full, room(), "the room after the reads");
        });
    }

    @Test
    void aFailingCallOnLentRoomGivesTheRoomBack() throws Exception {
        onLoneWorker(full -> {
            FutureCall c = defer(call -> {
                throw new IllegalStateException("fails on lent room");
            });
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> FutureCall.touchLong(c));
            assertEquals("fails on lent room", e.getMessage());
            assertEquals(full, room(), "the room after a failed read");
            FutureCall again = defer(ROOM);
            assertEquals(full, FutureCall.touchLong(again), "after a failed call on lent room, the next last givable call got no room");
        });
    }

    /**
     * Runs {@code body} on a worker of a two-worker pool while the other worker spins inside a
     * task of its own, after serving any request that reached this worker before; passes the
     * worker's full room.
     */
    private static void onLoneWorker(IntConsumer body) throws Exception {
        assumeTrue(SpawnMode.current() == SpawnMode.AUTO, "needs spawn=auto: always promotes every call, never defers none");
        SpindlePool pool = new SpindlePool(2);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.submit(new Task<Void>() {
                @Override
                protected Void compute() throws InterruptedException {
                    holding.countDown();
                    while (release.getCount() > 0) {         // busy, not parked: no request, no parked worker
                        Thread.onSpinWait();
                        if (Thread.interrupted()) {
                            throw new InterruptedException();
                        }
                    }
                    return null;
                }
            });
            pool.invoke(new Task<Void>() {
                @Override
                protected Void compute() throws InterruptedException {
                    try {
                        assertTrue(holding.await(60, TimeUnit.SECONDS), "the other worker did not start the holding task within 60 s");
                        Worker me = (Worker) Thread.currentThread();
                        me.latentStack().serviceIfRequested();    // a request made before the other worker got busy
                        body.accept(me.deferRoom());
                        return null;
                    } finally {
                        release.countDown();
                    }
                }
            });
        } finally {
            release.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "the pool of the lent-room test did not terminate within 30 s");
        }
    }
}
