package dev.spindle.forkjoin;

/**
 * The two results of {@link ForkJoin#join(java.util.function.Supplier, java.util.function.Supplier)}.
 *
 * <pre>{@code
 * Pair<Integer, String> p = ForkJoin.join(() -> 6 * 7, () -> "answer");
 * int n = p.first();            // 42
 * }</pre>
 *
 * @param first  result of the first supplier
 * @param second result of the second supplier
 * @param <A>    first type
 * @param <B>    second type
 */
public record Pair<A, B>(A first, B second) {
}
