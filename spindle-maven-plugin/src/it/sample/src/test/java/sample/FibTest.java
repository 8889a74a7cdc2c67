package sample;

import dev.spindle.Future;
import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FibTest {
    static boolean woven(Class<?> c) {
        return Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.isSynthetic() && m.getName().startsWith("spindle$"));
    }

    static int twice(int x) {
        return 2 * x;
    }

    @Test
    void mainClassesAreWoven() {
        assertTrue(woven(Fib.class), "process-classes did not weave sample.Fib");
        try (SpindlePool pool = new SpindlePool(2)) {
            long v = pool.invoke(new Task<Long>() {
                @Override
                protected Long compute() {
                    return Fib.fib(30);
                }
            });
            assertEquals(832040L, v);
        }
    }

    @Test
    void testClassesAreWoven() {
        @Future int x = twice(21);
        assertEquals(42, x);
        assertTrue(woven(FibTest.class), "process-test-classes did not weave sample.FibTest");
    }
}
