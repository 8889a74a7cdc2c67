package dev.spindle.future;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The failures of one pool's futures that ran without a touch (promoted and run by the scheduler,
 * settled at the end of the task that created them, or run at their creation) and that nobody
 * has observed yet. Kept
 * until the pool closes; observed entries are dropped as new ones arrive.
 */
public final class UntouchedFailures {
    private final List<Entry> entries = new ArrayList<>();
    private volatile UntouchedFailureHandler handler = UntouchedFailureHandler.LOG;
    private int purgeAt = 64;

    /** {@code source}: the {@link PromotedFuture}, or the report's handle of a future that failed at its creation. */
    private record Entry(Object source, Outcome outcome) {
        LazyFuture<?> view() {
            return source instanceof PromotedFuture p ? p.view() : (LazyFuture<?>) source;
        }
    }

    /** Creates an empty ledger (one per pool). */
    public UntouchedFailures() {
    }

    /**
     * Replaces the handler.
     *
     * @param h the handler, not null
     */
    public void setHandler(UntouchedFailureHandler h) {
        handler = Objects.requireNonNull(h, "handler");
    }

    synchronized void add(PromotedFuture f, Outcome o) {
        addEntry(f, o);
    }

    /** A future that ran at its creation and failed; {@code view} is a report's handle on it. */
    synchronized void add(LazyFuture<?> view, Outcome o) {
        addEntry(view, o);
    }

    private void addEntry(Object source, Outcome o) {
        if (entries.size() >= purgeAt) {
            entries.removeIf(e -> e.outcome.observed);
            purgeAt = Math.max(64, entries.size() * 2);
        }
        entries.add(new Entry(source, o));
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
        UntouchedFailureHandler h = handler;
        for (Entry e : todo) {
            if (!e.outcome.observed) {
                e.outcome.observed = true;
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
