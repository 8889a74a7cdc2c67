package dev.spindle.future;

/**
 * A future's body with the place it was created, under {@code -Dspindle.debug.promotions=true}:
 * the latent stack holds bodies, not handles, so the promotion log finds the site here.
 */
final class TracedBody {
    private static final StackWalker WALKER = StackWalker.getInstance();
    /** Spindle's frames between the user's call and the future's creation. */
    private static final java.util.Set<String> INTERNAL = java.util.Set.of(TracedBody.class.getName(),
            LatentStack.class.getName(), LazyFuture.class.getName(), LongFuture.class.getName(),
            IntFuture.class.getName(), DoubleFuture.class.getName(), Scope.class.getName(), "dev.spindle.Spindle");

    final Object body;
    final String site;

    TracedBody(Object body) {
        this.body = body;
        this.site = WALKER.walk(frames -> frames
                .filter(f -> !INTERNAL.contains(f.getClassName()))
                .findFirst().map(StackWalker.StackFrame::toStackTraceElement).map(String::valueOf)
                .orElse("(unknown)"));
    }

    @Override
    public String toString() {
        return "body created at " + site;
    }
}
