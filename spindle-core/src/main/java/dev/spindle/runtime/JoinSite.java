package dev.spindle.runtime;

/**
 * Added as a suppressed exception to a task's unchecked failure when it is rethrown by a join:
 * its stack trace is the joiner's, so a report shows both where the task failed and where it was
 * waited for.
 *
 * <pre>{@code
 * try { task.join(); }
 * catch (IllegalStateException e) {
 *     // e is the task's own exception; e.getSuppressed()[0] is a JoinSite with the join's stack
 * }
 * }</pre>
 */
public final class JoinSite extends RuntimeException {
    private static final long serialVersionUID = 1L;

    JoinSite(Thread joiner) {
        super("task failure rethrown by a join in thread \"" + joiner.getName() + "\"");
    }
}
