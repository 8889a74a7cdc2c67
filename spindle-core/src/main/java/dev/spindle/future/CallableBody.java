package dev.spindle.future;

import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * A {@link Callable} future body seen as a {@link Supplier}: {@link #get()} calls it and lets a
 * checked exception out as itself, undeclared, so that a touch wraps it in a
 * {@link java.util.concurrent.CompletionException} as it wraps any checked failure.
 *
 * <p>With callables wrapped at creation ({@code Spindle.futureCall}, {@code Scope.futureCall}),
 * every body of the object API is a Supplier, and a future run at its creation calls it without
 * a type test in between — one level of inlining less on a path a recursive body passes twice
 * (see {@code Outcome.runAtCreation}).
 *
 * @param <T> result type
 */
final class CallableBody<T> implements Supplier<T> {
    private final Callable<? extends T> callable;

    CallableBody(Callable<? extends T> callable) {
        this.callable = callable;
    }

    @Override
    public T get() {
        try {
            return callable.call();
        } catch (Exception e) {
            throw CallableBody.<RuntimeException>undeclared(e);
        }
    }

    /** Throws {@code t} whatever its type; declared to return one so that callers can write {@code throw}. */
    @SuppressWarnings("unchecked")
    private static <X extends Throwable> X undeclared(Throwable t) throws X {
        throw (X) t;
    }

    @Override
    public String toString() {
        return callable.toString();
    }
}
