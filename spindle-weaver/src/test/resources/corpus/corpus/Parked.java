package corpus;

import dev.spindle.Future;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Not a conformance shape: a call deferred while the pool's other worker is parked and nobody
 * asks for work. The declaring worker then blocks on a latch, so the call runs only if the
 * deferral itself made it reach the parked worker.
 */
public class Parked {
    static String runsOn(CountDownLatch started) {
        started.countDown();
        return Thread.currentThread().getName();
    }

    public static String deferWhileAnotherWorkerIsParked() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        @Future String where = runsOn(started);
        if (!started.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the deferred call stayed latent for 10 s while the other worker was parked");
        }
        return where;
    }
}
