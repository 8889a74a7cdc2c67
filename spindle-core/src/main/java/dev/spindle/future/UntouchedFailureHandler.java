package dev.spindle.future;

/**
 * Receives the failure of a future that nobody touched, at the latest when the future's scope
 * ends (a scope raises them instead) or its pool closes — or sooner, on the thread whose failure
 * overflowed the pool's bound on unobserved failures ({@link UntouchedFailures}). The default logs
 * a WARNING on the {@link System.Logger} named {@code dev.spindle.future}.
 *
 * <pre>{@code
 * List<Throwable> lost = new CopyOnWriteArrayList<>();
 * pool.setUntouchedFailureHandler((future, failure) -> lost.add(failure));
 * }</pre>
 */
@FunctionalInterface
public interface UntouchedFailureHandler {

    /**
     * Called once per failed future that was never touched.
     *
     * @param future  a handle on the future: a new one, not the handle the future was created
     *                with (handles are not kept, see {@link LazyFuture})
     * @param failure what its body threw
     */
    void untouched(LazyFuture<?> future, Throwable failure);

    /** The default: a WARNING on the {@code dev.spindle.future} logger. */
    UntouchedFailureHandler LOG = (future, failure) -> System.getLogger("dev.spindle.future").log(
            System.Logger.Level.WARNING, "a future failed and was never touched: " + future, failure);
}
