package dev.spindle.future;

/**
 * A {@link FutureCall} its owner promoted: a task any worker may steal. The thief runs the call
 * through its {@link FutureCallBody}, which writes the result (or the failure) into the record
 * before the task completes, so the owner, which waits for the task's completion, reads them
 * after a happens-before edge.
 */
final class PromotedCall extends ClaimableTask {
    final FutureCall call;

    PromotedCall(FutureCall call) {
        this.call = call;
    }

    @Override
    protected Object compute() {
        FutureCall c = call;
        LatentStack here = LatentStack.current();
        if (here != c.stack) {
            here.stolen++;
        }
        c.runBody();
        return null;
    }
}
