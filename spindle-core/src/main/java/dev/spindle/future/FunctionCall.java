package dev.spindle.future;

import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * The call form of a future: a function and its one argument ({@code Spindle.futureLong(Fib::fib,
 * n - 1)}) instead of a body that captured the argument ({@code () -> fib(n - 1)}).
 *
 * <h2>Why it exists</h2>
 * A capturing lambda is an object the caller allocates before the runtime decides anything, and
 * it escapes into {@link LatentStack#admit} (out of line on purpose, see there), so a future of
 * the supplier form costs at least its lambda — 16 bytes for one captured {@code int} — even when
 * it runs at its creation, which is what almost every future of a recursion does. In the call
 * form the function is usually non-capturing (a method reference or a lambda that uses only its
 * parameter), which the JVM creates once, and the argument travels as a plain parameter; a
 * future run at its creation then allocates nothing at all, which is what DBLFutures asks of a
 * future that runs inline. Only a future that {@code admit} pushes latent gets a body object,
 * made here: a supplier of the call, so that every later path — touch, promotion, region end —
 * is the supplier form's.
 *
 * <h2>Kinds</h2>
 * The low two bits of a kind are the result ({@link LatentStack#OBJECT}, {@link LatentStack#LONG},
 * {@link LatentStack#INT}, {@link LatentStack#DOUBLE}); {@link #OF_REF} or {@link #OF_INT} say
 * the argument is a reference or an {@code int}.
 */
final class FunctionCall {
    /** The argument is a reference: a Function, ToLongFunction, ToIntFunction or ToDoubleFunction. */
    static final int OF_REF = 4;
    /** The argument is an {@code int}: an IntToLongFunction or IntUnaryOperator. */
    static final int OF_INT = 8;
    static final int OBJECT_OF_REF = OF_REF | LatentStack.OBJECT;
    static final int LONG_OF_REF = OF_REF | LatentStack.LONG;
    static final int INT_OF_REF = OF_REF | LatentStack.INT;
    static final int DOUBLE_OF_REF = OF_REF | LatentStack.DOUBLE;
    static final int LONG_OF_INT = OF_INT | LatentStack.LONG;
    static final int INT_OF_INT = OF_INT | LatentStack.INT;

    private FunctionCall() {
    }

    /**
     * The body of a call-form future pushed latent: a supplier of the right primitive kind that
     * applies {@code fn} to the argument.
     *
     * @param fn  the function
     * @param ref the argument, if a reference
     * @param arg the argument, if an {@code int}
     * @param kind one of this class's kinds
     * @return a Supplier, LongSupplier, IntSupplier or DoubleSupplier
     */
    @SuppressWarnings("unchecked")
    static Object asBody(Object fn, Object ref, int arg, int kind) {
        return switch (kind) {
            case OBJECT_OF_REF -> (Supplier<Object>) () -> ((Function<Object, ?>) fn).apply(ref);
            case LONG_OF_REF -> (LongSupplier) () -> ((ToLongFunction<Object>) fn).applyAsLong(ref);
            case INT_OF_REF -> (IntSupplier) () -> ((ToIntFunction<Object>) fn).applyAsInt(ref);
            case DOUBLE_OF_REF -> (DoubleSupplier) () -> ((ToDoubleFunction<Object>) fn).applyAsDouble(ref);
            case LONG_OF_INT -> (LongSupplier) () -> ((IntToLongFunction) fn).applyAsLong(arg);
            case INT_OF_INT -> (IntSupplier) () -> ((IntUnaryOperator) fn).applyAsInt(arg);
            default -> throw new IllegalArgumentException("not a call-form kind: " + kind);
        };
    }
}
