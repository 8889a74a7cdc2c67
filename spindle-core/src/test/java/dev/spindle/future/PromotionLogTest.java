package dev.spindle.future;

import dev.spindle.Spindle;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import dev.spindle.runtime.Worker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The promotion log ({@code -Dspindle.debug.promotions=true}) names each promoted future's
 * creation site. Runs in its own surefire execution with the property set; skipped otherwise.
 */
class PromotionLogTest {

    @Test
    void eachPromotionIsLoggedWithItsCreationSite() throws Exception {
        assumeTrue(LatentStack.TRACE, "run with -Dspindle.debug.promotions=true");
        List<String> messages = new CopyOnWriteArrayList<>();
        Logger jul = Logger.getLogger("dev.spindle.future");
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                messages.add(r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(h);
        jul.setLevel(Level.ALL);
        try (QuietPool quiet = new QuietPool()) {          // the future is latent until exposed
            SpindlePool pool = quiet.pool;
            Task<Integer> t = new Task<>() {
                @Override
                protected Integer compute() {
                    LazyFuture<Integer> f = Spindle.future(() -> 41);      // the creation site
                    ((Worker) Thread.currentThread()).latentStack().exposeAll("test");
                    return f.touch() + 1;
                }
            };
            pool.submit(t);
            assertEquals(42, t.get(60, TimeUnit.SECONDS));
        } finally {
            jul.removeHandler(h);
        }
        assertTrue(messages.stream().anyMatch(m -> m.contains("PromotionLogTest") && m.contains("(test)")),
                "no promotion log naming the creation site: " + messages);
    }
}
