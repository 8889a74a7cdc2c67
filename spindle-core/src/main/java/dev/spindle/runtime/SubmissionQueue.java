package dev.spindle.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Tasks submitted by threads that are not workers of the pool: a lock-free multi-producer,
 * multi-consumer FIFO queue that every worker polls after its own deque and before parking.
 * External submission is not the owner's hot path, so a proven MPMC queue is used as it is.
 */
final class SubmissionQueue {
    private final ConcurrentLinkedQueue<Task<?>> queue = new ConcurrentLinkedQueue<>();

    void offer(Task<?> t) {
        queue.offer(t);
    }

    Task<?> poll() {
        return queue.poll();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    List<Task<?>> drain() {
        List<Task<?>> out = new ArrayList<>();
        for (Task<?> t; (t = queue.poll()) != null; ) {
            out.add(t);
        }
        return out;
    }
}
