package dev.spindle.future;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A structured region of futures, the library form of DBLFutures' rule that a method waits for
 * its futures before it exits: when {@link #run(Function)} returns, every future forked through
 * the scope has finished, and the failures of those nobody touched are raised there.
 *
 * <pre>{@code
 * long total = Spindle.scopeValue(s -> {
 *     List<LazyFuture<Long>> parts = new ArrayList<>();
 *     for (Path p : files) parts.add(s.futureCall(() -> Files.size(p)));
 *     long sum = 0;
 *     for (LazyFuture<Long> f : parts) sum += f.touch();
 *     return sum;
 * });
 * }</pre>
 *
 * <p>Raising: if the scope's body threw, untouched failures are added to its exception as
 * suppressed; otherwise the first untouched failure is thrown (unchecked as itself, checked
 * wrapped in {@link CompletionException}) with the others suppressed. Futures may be forked
 * through the scope from any thread while it is open; forking after it closed throws
 * {@link IllegalStateException}.
 */
public final class Scope {
    /** What {@link #add} creates: a generic future or one of the primitive ones. */
    private static final int OBJECT = 0;
    private static final int LONG = 1;
    private static final int INT = 2;
    private static final int DOUBLE = 3;

    private final Thread owner = Thread.currentThread();
    private final ArrayList<LazyFuture<?>> mine = new ArrayList<>();
    private final List<LazyFuture<?>> others = new ArrayList<>();
    private boolean closed;

    private Scope() {
    }

    /**
     * Runs {@code body} in a new scope and returns its result once every future of the scope
     * has finished.
     *
     * @param body the scope's body
     * @param <R>  result type
     * @return the body's result
     * @throws NullPointerException if body is null
     */
    public static <R> R run(Function<? super Scope, ? extends R> body) {
        Objects.requireNonNull(body, "body");
        Scope s = new Scope();
        R r;
        try {
            r = body.apply(s);
        } catch (Throwable ex) {
            for (Throwable t : s.close()) {
                if (t != ex) {
                    ex.addSuppressed(t);
                }
            }
            throw ex;
        }
        List<Throwable> failures = s.close();
        if (!failures.isEmpty()) {
            Throwable first = failures.get(0);
            for (int i = 1; i < failures.size(); i++) {
                first.addSuppressed(failures.get(i));
            }
            if (first instanceof RuntimeException || first instanceof Error) {
                throw Outcome.sneaky(first);
            }
            throw new CompletionException(first);
        }
        return r;
    }

    /**
     * {@link #run(Function)} for a body without a result.
     *
     * @param body the scope's body
     */
    public static void runVoid(Consumer<? super Scope> body) {
        Objects.requireNonNull(body, "body");
        run(s -> {
            body.accept(s);
            return null;
        });
    }

    /**
     * Forks a future in this scope.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException  if body is null
     * @throws IllegalStateException if the scope has closed
     */
    public <T> LazyFuture<T> future(Supplier<? extends T> body) {
        Objects.requireNonNull(body, "body");
        return add(body);
    }

    /**
     * Forks a future of a callable in this scope.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException  if body is null
     * @throws IllegalStateException if the scope has closed
     */
    public <T> LazyFuture<T> futureCall(Callable<? extends T> body) {
        Objects.requireNonNull(body, "body");
        return add(new CallableBody<>(body));
    }

    /**
     * Forks a future of a {@code long} supplier in this scope (see {@link LongFuture}).
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException  if body is null
     * @throws IllegalStateException if the scope has closed
     */
    public LongFuture futureLong(LongSupplier body) {
        Objects.requireNonNull(body, "body");
        return (LongFuture) this.<Long>add(body, LONG);
    }

    /**
     * Forks a future of an {@code int} supplier in this scope (see {@link IntFuture}).
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException  if body is null
     * @throws IllegalStateException if the scope has closed
     */
    public IntFuture futureInt(IntSupplier body) {
        Objects.requireNonNull(body, "body");
        return (IntFuture) this.<Integer>add(body, INT);
    }

    /**
     * Forks a future of a {@code double} supplier in this scope (see {@link DoubleFuture}).
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException  if body is null
     * @throws IllegalStateException if the scope has closed
     */
    public DoubleFuture futureDouble(DoubleSupplier body) {
        Objects.requireNonNull(body, "body");
        return (DoubleFuture) this.<Double>add(body, DOUBLE);
    }

    private <T> LazyFuture<T> add(Object body) {
        return add(body, OBJECT);
    }

    private <T> LazyFuture<T> add(Object body, int kind) {
        if (Thread.currentThread() == owner) {
            if (closed) {
                throw closedError();
            }
            LazyFuture<T> f = create(body, kind);
            mine.add(f);
            return f;
        }
        synchronized (others) {
            if (closed) {
                throw closedError();
            }
            LazyFuture<T> f = create(body, kind);
            others.add(f);
            return f;
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> LazyFuture<T> create(Object body, int kind) {
        return switch (kind) {
            case LONG -> (LazyFuture<T>) LongFuture.create(body);
            case INT -> (LazyFuture<T>) IntFuture.create(body);
            case DOUBLE -> (LazyFuture<T>) DoubleFuture.create(body);
            default -> LazyFuture.create(body);
        };
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("scope already closed: fork futures inside Spindle.scope(...)");
    }

    /** Waits for every future (newest first, so latent ones pop off the stack), collecting untouched failures. */
    private List<Throwable> close() {
        List<Throwable> failures = new ArrayList<>();
        LatentStack s = LatentStack.current();
        for (;;) {
            LazyFuture<?> f = null;
            if (!mine.isEmpty()) {
                f = mine.remove(mine.size() - 1);
            } else {
                synchronized (others) {
                    if (others.isEmpty()) {
                        closed = true;
                        return failures;
                    }
                    f = others.remove(others.size() - 1);
                }
            }
            Object c = f.resolve(s, 0L);
            if (c instanceof Outcome o && o.failure != null && !o.observed) {
                o.observed = true;
                failures.add(o.failure);
            }
        }
    }

    @Override
    public String toString() {
        return "Scope[" + owner.getName() + (closed ? ", closed" : ", open") + "]";
    }
}
