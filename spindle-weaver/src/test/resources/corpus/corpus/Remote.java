package corpus;

import dev.spindle.Future;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Not a conformance shape: a woven call that fails on another worker. Under spawn=always a
 * deferred call is promoted as it is declared, so while the declaring worker blocks on the latch
 * only another worker can run it; the read then waits for that worker and raises its failure.
 */
public class Remote {
    /** The line of the read in {@link #failsElsewhere}; the test looks for it in the touch site. */
    public static final int READ_LINE = 43;

    static int failOnAnotherThread(Thread declarer, CountDownLatch started) {
        if (Thread.currentThread() == declarer) {
            throw new AssertionError("the call ran on the thread that declared it");
        }
        started.countDown();
        throw new IllegalStateException("failed on " + Thread.currentThread().getName());
    }

    static int identity(int x) {
        return x;
    }

    public static int failsElsewhere() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        @Future int x = failOnAnotherThread(Thread.currentThread(), started);
        for (int i = 0; !started.await(100, TimeUnit.MILLISECONDS); i++) {
            if (i == 300) {
                throw new AssertionError("the promoted call did not start on another worker within 30 s");
            }
            // A worker that went idle just after the first push (too late to be seen by it) is seen
            // by this one, which then shares both promoted calls.
            @Future int nudge = identity(i);
            if (nudge != i) {
                throw new AssertionError("identity(" + i + ") = " + nudge);
            }
        }
        return x;
    }
}
