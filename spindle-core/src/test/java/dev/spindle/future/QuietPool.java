package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pool of two workers with one of them held in a blocked task until {@link #close()}: tasks
 * submitted to {@link #pool} run on the other worker, which nobody else can steal from, so the
 * futures it creates stay latent until its own code exposes them. A pool of one worker keeps no
 * latent futures at all ({@code Worker.latentKeep}), so the tests of the latent paths use this.
 */
final class QuietPool implements AutoCloseable {
    final SpindlePool pool = new SpindlePool(2);
    private final CountDownLatch release = new CountDownLatch(1);

    QuietPool() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        pool.submit(new Task<Void>() {
            @Override
            protected Void compute() throws Exception {
                held.countDown();
                assertTrue(release.await(60, TimeUnit.SECONDS), "QuietPool's holder task was never released");
                return null;
            }
        });
        assertTrue(held.await(60, TimeUnit.SECONDS), "no worker started QuietPool's holder task");
        // A worker about to park asks every other worker's stack for work, so the held worker may
        // have asked the free one's before it took the holder task. A future created and touched
        // there consumes that request.
        Task<Integer> drain = new Task<>() {
            @Override
            protected Integer compute() {
                return Spindle.future(() -> 1).touch();
            }
        };
        pool.submit(drain);
        assertEquals(1, drain.get(60, TimeUnit.SECONDS), "QuietPool's draining task");
    }

    @Override
    public void close() {
        release.countDown();
        pool.close();
    }
}
