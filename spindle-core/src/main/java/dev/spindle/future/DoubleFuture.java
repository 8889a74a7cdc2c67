package dev.spindle.future;

import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * A {@link LazyFuture} of a {@code double}, whose {@link #touchDouble()} returns the value unboxed.
 *
 * <p>Everything {@link LazyFuture} says holds here: this is one, created by
 * {@code Spindle.futureDouble(body)}, and {@link #touch()} and {@link #get()} return the value boxed.
 * What the primitive touch adds is that no path boxes it. With a generic future, the owner's
 * touch returns either the body's fresh box or, for a future that was promoted, the box another
 * thread stored; where both paths are compiled (a worker that is sometimes stolen from) C2 cannot
 * remove the fresh box, because it merges with the other object before the caller unboxes it.
 * Here the two paths merge as {@code double} values, so a future nobody promoted allocates only the
 * caller's lambda at any number of workers.
 */
public final class DoubleFuture extends LazyFuture<Double> {

    /** The value, when the cell is {@link Outcome#IN_HANDLE}: run at its creation or at the owner's touch. */
    private double value;

    private DoubleFuture(ExposedFutures region, long number, Object body) {
        super(region, number, body);
    }

    /**
     * Creates a future of a {@code double} supplier on the calling thread's latent stack.
     *
     * @param body the body
     * @return the future
     * @throws NullPointerException if body is null
     */
    public static DoubleFuture of(DoubleSupplier body) {
        return create(Objects.requireNonNull(body, "body"));
    }

    static DoubleFuture create(Object body) {
        if (LatentStack.TRACE) {
            body = new TracedBody(body);
        }
        LatentStack s = LatentStack.current();
        ExposedFutures r = s.currentRegion();
        Object b = body;
        Object c = null;
        double v = 0;
        long k;
        if (s.runsNow()) {                                  // as in LazyFuture.create: one allocation site
            k = s.numberRunNow();
            b = NO_BODY;
            try {
                v = Outcome.invokeDouble(body);
                c = Outcome.IN_HANDLE;
            } catch (Throwable ex) {
                c = s.failedAtCreation(r, k, ex);
            }
        } else {
            k = s.push(body);
        }
        DoubleFuture f = new DoubleFuture(r, k, b);
        f.value = v;
        CELL.setRelease(f, c);
        return f;
    }

    /**
     * Returns the value, as {@link #touch()} does, without boxing it.
     *
     * @return the value
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     * @throws IllegalStateException if called from inside this future's own body
     */
    public final double touchDouble() {
        ExposedFutures r = region;
        if (!r.ownedByCurrentThread()) {                   // as in touch(): C2 sees it never taken
            return touchShared();
        }
        Object known = cell;
        if (known != null) {
            if (known == Outcome.IN_HANDLE) {
                return value;                                  // run at its creation, or touched before
            }
            if (body == NO_BODY) {
                return (Double) Outcome.report(known);            // failed at its creation
            }
            return touchShared();
        }
        if (r.popTop(body, number)) {
            cell = Outcome.RUNNING;
            double v;
            try {
                v = Outcome.invokeDouble(body);
            } catch (Throwable ex) {
                CELL.setRelease(this, Outcome.failedTouched(ex));
                throw Outcome.forTouch(ex);
            }
            value = v;                                         // not boxed: see Outcome.IN_HANDLE
            CELL.setRelease(this, Outcome.IN_HANDLE);          // removed with the handle where it does not escape
            return v;
        }
        Object c = r.settleOwned(number, body);
        CELL.setRelease(this, c);
        r.forget(number);
        return (Double) Outcome.report(c);
    }

    @Override
    Object valueInHandle() {
        return value;
    }
}
