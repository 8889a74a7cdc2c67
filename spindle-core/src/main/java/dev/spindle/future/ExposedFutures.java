package dev.spindle.future;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the futures of one stretch of a {@link LatentStack} go when they leave the stack without
 * their handle: promoted to a task, or run by the owner outside a touch (spawn=never, the end of
 * a task). Keyed by the future's number; read by any thread holding one of the futures' handles.
 *
 * <h2>Why futures are found by number, not by handle</h2>
 * A {@link LazyFuture} handle holds (this table, its number, its body) and caches its outcome;
 * the latent stack holds (body, number, table) and never the handle. So a handle that does not
 * escape the method that created and touched it — a future at every call of a recursion — is
 * removed by C2's escape analysis, and with it the boxed result: a future that nobody promotes
 * allocates only the caller's lambda. The owner, promoting an entry, has no handle to publish
 * into; it publishes the task here instead ({@link #expose}), before the task is visible to any
 * other thread, and a handle that misses its entry on the owner's stack looks here.
 *
 * <h2>Lifetime</h2>
 * Nothing but the handles and the stack's entries reaches a table: the owner starts a new one
 * after each exposure ({@link LatentStack#retireRegion}), so an old table, with the tasks of
 * futures nobody ever touched, is garbage as soon as the last of its handles is. The owner's
 * touch that took its outcome from here caches it in the handle and removes the entry
 * ({@link #forget}); other threads cache it and leave the entry, on which the owner's touch relies
 * (it reads the handle's cell plainly and may not see their store).
 *
 * <h2>Memory ordering</h2>
 * The owner puts a task before it pushes the task on a deque or hands it to a pool, and the map
 * publishes it safely. A toucher on another thread that finds neither its outcome cached in the
 * handle nor an entry here re-reads the handle: the owner stores the outcome into the handle
 * (release) before it removes the entry (a volatile write of the map), so the re-read sees it.
 */
final class ExposedFutures {
    final LatentStack stack;
    /** The number of the first future recorded here; later tables start at higher numbers. */
    final long firstNumber;
    /** Created by the owner at the first exposure. */
    private volatile ConcurrentHashMap<Long, PromotedFuture> byNumber;

    ExposedFutures(LatentStack stack, long firstNumber) {
        this.stack = stack;
        this.firstNumber = firstNumber;
    }

    /** The touch's fast path, on the owner thread: pops the future if it is the stack's newest entry. */
    boolean popTop(Object body, long number) {
        return stack.popFuture(body, number);
    }

    /**
     * The owner's touch of a future that is not its stack's newest entry and whose handle holds
     * no outcome: the final cell value of the future run here if it is latent deeper in the
     * stack, or of its exposed task, claimed and run here or waited for.
     *
     * @throws IllegalStateException if the future is running here, out of order: its body touched it
     */
    Object settleOwned(long number, Object body) {
        LatentStack s = stack;
        if (s.removeFuture(body, number)) {
            return s.runOutOfOrder(number, body);
        }
        PromotedFuture p = get(number);
        if (p != null) {
            Object c = LazyFuture.awaitPromoted(p, 0L, false);
            if (c != null) {
                return c;
            }
        }
        if (s.isRunning(number)) {
            throw new IllegalStateException("future touched from inside its own body: future #" + number + " of " + s);
        }
        throw new IllegalStateException("future #" + number + " of " + s + " is neither latent, exposed nor settled");
    }

    /**
     * Any thread: the task of future {@code number}, or null if it has not left the stack (or its
     * outcome was already cached in its handle).
     */
    PromotedFuture get(long number) {
        ConcurrentHashMap<Long, PromotedFuture> m = byNumber;
        return m == null ? null : m.get(number);
    }

    /** Owner: records the task of future {@code number} before the task becomes visible. */
    void expose(long number, PromotedFuture p) {
        ConcurrentHashMap<Long, PromotedFuture> m = byNumber;
        if (m == null) {
            byNumber = m = new ConcurrentHashMap<>();
        }
        m.put(number, p);
        stack.retireRegion(this);
    }

    /** The owner's touch, after caching the outcome in the handle: drops the entry (other threads leave it). */
    void forget(long number) {
        ConcurrentHashMap<Long, PromotedFuture> m = byNumber;
        if (m != null) {
            m.remove(number);
        }
    }

    @Override
    public String toString() {
        ConcurrentHashMap<Long, PromotedFuture> m = byNumber;
        return "ExposedFutures[" + stack + ", exposed=" + (m == null ? 0 : m.size()) + "]";
    }
}
