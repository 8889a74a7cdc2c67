package dev.spindle.future;

import dev.spindle.runtime.IntProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The failures of one pool's futures that ran without a touch (promoted and run by the scheduler,
 * settled at the end of the task that created them, or run at their creation) and that nobody
 * has observed yet. Kept until the pool closes; observed entries are dropped as new ones arrive.
 *
 * <p>The ledger is bounded: a pool that never closes (the default pool lives until JVM exit)
 * would otherwise keep every fire-and-forget failure, its exception and stack trace, for good.
 * When more failures than its bound are unobserved, the oldest of them are reported at once,
 * on the thread that adds the newest, rather than when the pool closes; "at the latest when the
 * pool closes" still holds. A report made early does not mark the failure observed: the future
 * can still be touched and its touch still raises the failure, and a scope it was forked in still
 * raises it at its end (the handler is told of futures that were untouched when the ledger
 * overflowed; they leave the ledger, so the close does not report them again).
 * {@code -Dspindle.future.untouchedLimit=N} sets the bound (default {@value #DEFAULT_LIMIT}; 0: no
 * bound, every report waits for the pool to close).
 */
public final class UntouchedFailures {
    /** The bound when {@code spindle.future.untouchedLimit} is not set. */
    static final int DEFAULT_LIMIT = 4096;
    private static final int LIMIT = IntProperty.nonNegative("spindle.future.untouchedLimit", DEFAULT_LIMIT);

    private final List<Entry> entries = new ArrayList<>();
    private volatile UntouchedFailureHandler handler = UntouchedFailureHandler.LOG;
    /** Unobserved entries kept at most (0: no bound); past it the oldest are reported, down to half of it. */
    private final int limit;
    /** The size at which observed entries are purged and, past the bound, the oldest reported. */
    private int purgeAt;

    /** {@code source}: the {@link PromotedFuture}, or the report's handle of a future that failed at its creation. */
    private record Entry(Object source, Outcome outcome) {
        LazyFuture<?> view() {
            return source instanceof PromotedFuture p ? p.view() : (LazyFuture<?>) source;
        }
    }

    /** Creates an empty ledger (one per pool), bounded by {@code -Dspindle.future.untouchedLimit}. */
    public UntouchedFailures() {
        this(LIMIT);
    }

    /**
     * Creates an empty ledger with its own bound.
     *
     * @param limit unobserved failures kept at most before the oldest are reported; 0 for no bound
     * @throws IllegalArgumentException if {@code limit} is negative or 1
     */
    UntouchedFailures(int limit) {
        if (limit < 0 || limit == 1) {
            throw new IllegalArgumentException("untouched-failure limit must be 0 (no bound) or at least 2, not " + limit);
        }
        this.limit = limit;
        this.purgeAt = purgeSize(0);
    }

    /**
     * Replaces the handler.
     *
     * @param h the handler, not null
     */
    public void setHandler(UntouchedFailureHandler h) {
        handler = Objects.requireNonNull(h, "handler");
    }

    void add(PromotedFuture f, Outcome o) {
        addEntry(f, o);
    }

    /** A future that ran at its creation and failed; {@code view} is a report's handle on it. */
    void add(LazyFuture<?> view, Outcome o) {
        addEntry(view, o);
    }

    private void addEntry(Object source, Outcome o) {
        List<Entry> overflow = null;
        synchronized (this) {
            if (entries.size() >= purgeAt) {
                entries.removeIf(e -> e.outcome.observed);
                if (limit > 0 && entries.size() > limit / 2) {
                    // the oldest go now: the ledger keeps half its bound, so the next overflow is
                    // limit / 2 failures away and the work per failure stays constant
                    List<Entry> oldest = entries.subList(0, entries.size() - limit / 2);
                    overflow = new ArrayList<>(oldest);
                    oldest.clear();
                }
                purgeAt = purgeSize(entries.size());
            }
            entries.add(new Entry(source, o));
        }
        if (overflow != null) {
            report(overflow, false);
        }
    }

    /** The next purge size for {@code held} entries: twice them, at least 64, at most the bound. */
    private int purgeSize(int held) {
        int size = Math.max(64, held * 2);
        return limit > 0 ? Math.min(size, limit) : size;
    }

    /** Entries held: the unobserved ones, and observed ones until the next purge. For tests. */
    synchronized int size() {
        return entries.size();
    }

    /**
     * Hands every failure nobody observed to the handler; called when the pool closes. Whatever
     * the handler throws (an Error too) is logged and does not stop the others from being
     * reported, nor the pool from terminating.
     */
    public void reportAll() {
        List<Entry> todo;
        synchronized (this) {
            todo = new ArrayList<>(entries);
            entries.clear();
        }
        report(todo, true);
    }

    /**
     * Hands each entry not yet observed to the handler, outside the ledger's lock; at the close
     * ({@code markObserved}) marks it observed, but not when the ledger overflows, so that a touch
     * or a scope still raises it.
     */
    private void report(List<Entry> todo, boolean markObserved) {
        UntouchedFailureHandler h = handler;
        for (Entry e : todo) {
            if (!e.outcome.observed) {
                if (markObserved) {
                    e.outcome.observed = true;
                }
                try {
                    h.untouched(e.view(), e.outcome.failure);
                } catch (Throwable ex) {
                    System.getLogger("dev.spindle.future").log(System.Logger.Level.ERROR,
                            "untouched-failure handler threw", ex);
                }
            }
        }
    }
}
