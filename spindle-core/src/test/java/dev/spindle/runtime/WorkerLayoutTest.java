package dev.spindle.runtime;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The worker's own hot fields sit a cache line away from the fields other workers read on every
 * steal attempt, whatever holes HotSpot's field layout fills ({@link WorkerPad0}). Offsets come from
 * the JDK's internal {@code Unsafe}, exported to the tests by the build's surefire arguments.
 */
class WorkerLayoutTest {
    private static final int LINE = 64;

    @Test
    void theOwnersFieldsAreALineAwayFromEveryFieldOtherThreadsRead() throws ReflectiveOperationException {
        Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
        Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
        Method offsetOf = unsafeClass.getMethod("objectFieldOffset", Field.class);

        List<Long> owner = offsets(WorkerOwnerFields.class, unsafe, offsetOf);
        assertFalse(owner.isEmpty());
        long first = owner.stream().min(Long::compare).orElseThrow();
        long last = owner.stream().max(Long::compare).orElseThrow();
        for (Class<?> shared : List.of(Worker.class, Thread.class)) {
            for (Field f : shared.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                long at = (long) offsetOf.invoke(unsafe, f);
                assertTrue(at + LINE <= first || at >= last + LINE, shared.getSimpleName() + "." + f.getName() + " at offset " + at
                        + " is within a cache line of the worker's own fields (offsets " + first + ".." + last + ")");
            }
        }
    }

    private static List<Long> offsets(Class<?> c, Object unsafe, Method offsetOf) throws ReflectiveOperationException {
        List<Long> out = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                out.add((long) offsetOf.invoke(unsafe, f));
            }
        }
        return out;
    }
}
