package dev.spindle.future;

/**
 * A {@link LazyFuture}'s entry leaving its owner's stack: the stack keeps a future as (body,
 * number, {@link ExposedFutures}) and builds this view only when it promotes the future or runs it
 * outside a touch, never on the fast path.
 */
final class LatentFuture extends Latent {
    private final ExposedFutures region;
    private final long number;
    private final Object body;

    LatentFuture(ExposedFutures region, long number, Object body) {
        this.region = region;
        this.number = number;
        this.body = body;
    }

    @Override
    PromotedFuture promote(LatentStack stack) {
        PromotedFuture p = new PromotedFuture(region, number, body, stack);
        region.expose(number, p);
        return p;
    }

    @Override
    void runDetached(LatentStack stack) {
        promote(stack).runDetached();
    }

    @Override
    String site() {
        return body instanceof TracedBody t ? t.site : super.site();
    }
}
