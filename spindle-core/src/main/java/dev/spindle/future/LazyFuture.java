package dev.spindle.future;


import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A future whose parallelism the runtime decides: {@code Spindle.future(body)} records the body
 * and returns at once; the caller's code continues; {@link #touch()} returns the value.
 *
 * <p>A new future is <em>latent</em>: a plain entry on its creator's {@link LatentStack}. If
 * nobody asks for work, the body runs when the future is touched, on the touching thread, as a
 * method call. When other workers are hungry the creator promotes its oldest latent futures into
 * stealable tasks. Either way a future declares that its body may run concurrently with the code
 * that follows its creation, and every rule below holds whatever the runtime decided:
 * <ul>
 * <li>touching a future that has not started runs it on the touching thread;</li>
 * <li>touching a completed future returns its value, with a happens-before edge from everything
 * the body did;</li>
 * <li>touching a running future waits — on a worker by running other work;</li>
 * <li>a body that throws: every touch throws — an unchecked exception or Error as itself with a
 * {@link TouchSite} added as suppressed, a checked one wrapped in
 * {@link java.util.concurrent.CompletionException};</li>
 * <li>the body runs exactly once, however many threads touch;</li>
 * <li>touching a future from inside its own body throws {@link IllegalStateException};</li>
 * <li>{@link #cancel} before the body starts prevents it; touching a cancelled future throws
 * {@link CancellationException};</li>
 * <li>a failure nobody touches is handed to the pool's {@link UntouchedFailureHandler} when its
 * pool closes, or raised by its {@link Scope}.</li>
 * </ul>
 *
 * <pre>{@code
 * static long fib(int n) {
 *     if (n < 2) return n;
 *     LazyFuture<Long> a = Spindle.future(() -> fib(n - 1));   // no threshold anywhere
 *     long b = fib(n - 2);
 *     return a.touch() + b;
 * }
 * }</pre>
 *
 * <h2>Cost</h2>
 * Creating and touching a future nobody promoted is a handful of plain loads and stores on the
 * creator's stack and the handle (16 bytes: the one field {@code cell}), plus the call of the
 * body. A thread touching a future that is latent in <em>another</em> thread's stack asks every
 * owner to expose its futures and waits until the owner does, at its next future, touch, join or
 * task end: a thread that blocks outside Spindle (a lock, a queue) while another thread needs one
 * of its untouched futures delays that thread until it returns to Spindle.
 *
 * @param <T> result type
 */
public class LazyFuture<T> extends Latent implements Future<T> {
    private static final VarHandle CELL;

    static {
        try {
            CELL = MethodHandles.lookup().findVarHandle(LazyFuture.class, "cell", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The whole state. Latent: the body (a Supplier or Callable). Promoted: its
     * {@link PromotedFuture}. Running inline: the running thread's {@link LatentStack}. Done: the
     * result itself, or an {@link Outcome} (failure, cancellation, null, or a result that looks like
     * one of the other states).
     */
    Object cell;

    LazyFuture(Object body) {
        this.cell = body;
    }

    /**
     * Creates a future on the calling thread's latent stack.
     *
     * @param body the body, a Supplier or Callable
     * @param <T>  result type
     * @return the future
     */
    static <T> LazyFuture<T> create(Object body) {
        LazyFuture<T> f = LatentStack.TRACE ? new Traced<>(body) : new LazyFuture<>(body);
        LatentStack.current().push(f);
        return f;
    }

    /**
     * Creates a future of a supplier.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static <T> LazyFuture<T> of(Supplier<? extends T> body) {
        return create(Objects.requireNonNull(body, "body"));
    }

    /**
     * Creates a future of a callable, whose checked exceptions a touch delivers wrapped in
     * {@link java.util.concurrent.CompletionException}.
     *
     * @param body the body
     * @param <T>  result type
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static <T> LazyFuture<T> ofCallable(Callable<? extends T> body) {
        return create(Objects.requireNonNull(body, "body"));
    }

    void publish(Object outcome) {
        CELL.setRelease(this, outcome);
    }

    // ------------------------------------------------------------------ touch

    /**
     * Returns the value: runs the body here if it has not started, waits for it if it is running.
     *
     * @return the value
     * @throws CancellationException if the future was cancelled
     * @throws java.util.concurrent.CompletionException wrapping a checked exception of the body
     * @throws IllegalStateException if called from inside this future's own body
     */
    public final T touch() {
        LatentStack s = LatentStack.current();
        int t = s.top - 1;
        Object[] a = s.slots;
        if (a[t] == this) {
            a[t] = null;
            s.top = t;
            return runAtTouch(s);
        }
        return touchSlow(s);
    }

    @SuppressWarnings("unchecked")
    private T runAtTouch(LatentStack s) {
        Object body = cell;
        cell = s;
        Object r;
        try {
            r = Outcome.invoke(body);
        } catch (Throwable ex) {
            Outcome o = Outcome.failed(ex);
            o.observed = true;
            CELL.setRelease(this, o);
            throw Outcome.forTouch(ex);
        }
        CELL.setRelease(this, Outcome.encode(r));
        return (T) r;
    }

    @SuppressWarnings("unchecked")
    private T touchSlow(LatentStack s) {
        return (T) Outcome.report(resolve(s, 0L));
    }

    /**
     * The owner runs a latent future outside a touch (NEVER mode, end of a region): nobody
     * observes a failure here, so it goes to the pool's untouched-failure ledger.
     */
    @Override
    void runDetached(LatentStack s) {
        if (runHere(s) instanceof Outcome o && o.failure != null) {
            s.pool.untouchedFailures().add(this, o);
        }
    }

    /** Runs the body on the owner, already removed from its stack; returns the outcome stored in the cell. */
    private Object runHere(LatentStack s) {
        Object body = cell;
        cell = s;
        Object outcome;
        try {
            outcome = Outcome.encode(Outcome.invoke(body));
        } catch (Throwable ex) {
            outcome = Outcome.failed(ex);
        }
        CELL.setRelease(this, outcome);
        return outcome;
    }

    /**
     * Drives the future to its final state and returns the cell: runs it here if it is latent in
     * this thread's stack, claims or waits for its promoted task, waits for an inline run on
     * another thread, or asks the owner of a latent future to expose it.
     *
     * @param deadline System.nanoTime() deadline, or 0 for none
     * @return the final cell value, or null if the deadline passed
     */
    final Object resolve(LatentStack s, long deadline) {
        for (int round = 0; ; round++) {
            Object c = CELL.getAcquire(this);
            if (c instanceof PromotedFuture p) {
                if (deadline != 0L) {
                    try {
                        p.get(Math.max(1L, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    } catch (TimeoutException e) {
                        return null;
                    } catch (ExecutionException | CancellationException | InterruptedException e) {
                        if (e instanceof InterruptedException) {
                            Thread.currentThread().interrupt();
                            return null;
                        }
                    }
                } else {
                    p.runOrAwait();
                }
                continue;
            }
            if (c instanceof LatentStack runner) {
                if (runner == s) {
                    throw new IllegalStateException("future touched from inside its own body: " + this);
                }
            } else if (c == null) {
                Thread.onSpinWait();          // published by a data race: the constructor's store is on its way
                continue;
            } else if (Outcome.isBody(c)) {
                if (s.remove(this)) {
                    runHere(s);                   // out of order; the caller reports the outcome
                    continue;
                }
                if ((round & 63) == 0) {
                    LatentStack.requestAll();
                }
            } else {
                return c;
            }
            if (deadline != 0L && System.nanoTime() - deadline >= 0L) {
                return null;
            }
            pause(s, round);
        }
    }

    /**
     * One step of waiting for a future another thread runs inline (or holds latent): serve
     * requests, spin, yield, then sleep briefly. No helping with other work: it could be a future
     * that waits for a frame below this one (see {@code Worker.awaitFuture}).
     */
    private static void pause(LatentStack s, int round) {
        s.serviceIfRequested();
        if (round < 32) {
            Thread.onSpinWait();
            return;
        }
        if (round < 64) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, 10_000L << Math.min(7, (round - 64) >> 4)));
        }
    }

    // ------------------------------------------------------------------ Future

    /**
     * Like {@link #touch()}, but with {@link Future}'s exceptions.
     *
     * @return the value
     * @throws ExecutionException if the body threw
     * @throws InterruptedException if interrupted before the wait began
     */
    @Override
    @SuppressWarnings("unchecked")
    public final T get() throws InterruptedException, ExecutionException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return (T) reportGet(resolve(LatentStack.current(), 0L));
    }

    @Override
    @SuppressWarnings("unchecked")
    public final T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long deadline = System.nanoTime() + Math.max(1L, nanos);
        if (deadline == 0L) {
            deadline = 1L;
        }
        Object c = resolve(LatentStack.current(), deadline);
        if (c == null) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            throw new TimeoutException("future not done after " + timeout + " " + unit + ": " + this);
        }
        return (T) reportGet(c);
    }

    private static Object reportGet(Object c) throws ExecutionException {
        if (c instanceof Outcome o) {
            if (o == Outcome.CANCELLED) {
                throw new CancellationException("future was cancelled");
            }
            if (o.failure != null) {
                o.observed = true;
                throw new ExecutionException(o.failure);
            }
            return o.value;
        }
        return c;
    }

    /**
     * Cancels the future if its body has not started. A future latent in another thread's stack
     * is first exposed by its owner (this call waits for that).
     *
     * @param mayInterruptIfRunning ignored: a started body is never interrupted
     * @return true if this call cancelled the future
     */
    @Override
    public final boolean cancel(boolean mayInterruptIfRunning) {
        LatentStack s = LatentStack.current();
        for (int round = 0; ; round++) {
            Object c = CELL.getAcquire(this);
            if (c instanceof PromotedFuture p) {
                return p.cancel(mayInterruptIfRunning);
            }
            if (c == null) {
                Thread.onSpinWait();
                continue;
            }
            if (!Outcome.isBody(c)) {
                return false;                              // running or done
            }
            if (s.remove(this)) {
                s.cancelled++;
                CELL.setRelease(this, Outcome.CANCELLED);
                return true;
            }
            if ((round & 63) == 0) {
                LatentStack.requestAll();
            }
            pause(s, round);
        }
    }

    @Override
    public final boolean isCancelled() {
        return CELL.getAcquire(this) == Outcome.CANCELLED;
    }

    @Override
    public final boolean isDone() {
        Object c = CELL.getAcquire(this);
        return c != null && Outcome.isFinal(c);
    }

    @Override
    ClaimableTask promote(LatentStack stack) {
        PromotedFuture p = new PromotedFuture(this, cell, stack);
        publish(p);
        return p;
    }

    @Override
    public String toString() {
        Object c = CELL.getAcquire(this);
        String st;
        if (c == null || Outcome.isBody(c)) {
            st = "latent";
        } else if (c instanceof PromotedFuture p) {
            st = "promoted";
        } else if (c instanceof LatentStack) {
            st = "running";
        } else if (c == Outcome.CANCELLED) {
            st = "cancelled";
        } else if (c instanceof Outcome o && o.failure != null) {
            st = "failed: " + o.failure;
        } else {
            st = "completed";
        }
        return "LazyFuture@" + Integer.toHexString(System.identityHashCode(this)) + "[" + st + "]";
    }

    /** A future that remembers where it was created, for the promotion log. */
    private static final class Traced<T> extends LazyFuture<T> {
        private static final StackWalker WALKER = StackWalker.getInstance();
        /** Spindle's frames between the user's call and this constructor. */
        private static final java.util.Set<String> INTERNAL = java.util.Set.of(Traced.class.getName(),
                LazyFuture.class.getName(), Scope.class.getName(), "dev.spindle.Spindle");
        private final String site;

        Traced(Object body) {
            super(body);
            this.site = WALKER.walk(frames -> frames
                    .filter(f -> !INTERNAL.contains(f.getClassName()))
                    .findFirst().map(StackWalker.StackFrame::toStackTraceElement).map(String::valueOf)
                    .orElse("(unknown)"));
        }

        @Override
        String site() {
            return site;
        }
    }
}
