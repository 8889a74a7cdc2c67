package dev.spindle.forkjoin;

import dev.spindle.runtime.Task;

/**
 * A resultless fork/join task, the counterpart of {@link java.util.concurrent.RecursiveAction}.
 *
 * <pre>{@code
 * final class Fill extends RecursiveAction {
 *     final int[] a; final int lo, hi;
 *     Fill(int[] a, int lo, int hi) { this.a = a; this.lo = lo; this.hi = hi; }
 *     protected void action() {
 *         if (hi - lo <= 4096) { for (int i = lo; i < hi; i++) a[i] = i; return; }
 *         int mid = (lo + hi) >>> 1;
 *         invokeAll(new Fill(a, lo, mid), new Fill(a, mid, hi));
 *     }
 * }
 * }</pre>
 */
public abstract class RecursiveAction extends Task<Void> {

    /** Constructor for subclasses. */
    protected RecursiveAction() {
    }

    /** The computation. */
    protected abstract void action();

    @Override
    protected final Void compute() {
        action();
        return null;
    }
}
