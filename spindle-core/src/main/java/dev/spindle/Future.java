package dev.spindle;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The future directive: marks a local variable whose initializer (or later assignment) is a method
 * call that may run concurrently with the code that follows it, as in DBLFutures.
 *
 * <pre>{@code
 * static long fib(int n) {
 *     if (n < 2) return n;
 *     @Future long a = fib(n - 1);      // a potential future: the runtime decides
 *     long b = fib(n - 2);
 *     return a + b;                     // the first read of a waits for its value
 * }
 * }</pre>
 *
 * <p>The annotation does nothing by itself: javac records it in the class file (a type annotation
 * on the local variable), and the Spindle weaver — the {@code spindle-maven-plugin} goal
 * {@code weave}, the {@code spindle-agent} javaagent, or {@code ./spindle weave} — rewrites each
 * annotated method. The woven method's meaning does not depend on what the runtime decides:
 * <ul>
 * <li>the receiver and arguments are evaluated at the declaration, in source order;</li>
 * <li>the call runs either right there, or later on this thread, or on another worker; the first
 * read of the variable waits for its value, later reads are plain loads;</li>
 * <li>an exception thrown by the call is thrown, as the original exception, at the first read
 * of the variable — or, if the value is never read, when the method exits; the code between the
 * declaration and that read may have run (a call made at its declaration in a method where the
 * same handlers cover the declaration and the reads throws right there, as the serial method
 * would, so that code has not); if a handler catches it there and the method reads
 * the variable again, that read finds it never assigned: {@code 0}, {@code false} or
 * {@code null} (the serial method would have thrown at the declaration and never got there);</li>
 * <li>the method never exits, normally or by an exception, while a call it started may still be
 * running: every outstanding call is waited for before each exit, when the variable is assigned
 * again, and when control leaves the variable's scope (so a future declared in a loop body is
 * finished by the end of its iteration);</li>
 * <li>a call declared where the method holds a monitor (a synchronized method or block) runs at
 * its declaration, since another thread running it could need that monitor; so does a call in a
 * static initializer, which holds its class's initialization lock; and a call still outstanding
 * when the method enters a synchronized block, or takes a {@code java.util.concurrent.locks}
 * lock ({@code Lock.lock} and its variants, {@code StampedLock}), is finished first (its value
 * and failure wait for the read), since the thread running it could need that lock.</li>
 * </ul>
 * A future is a call another thread may run, so the same hazard reaches further than the weaver
 * can see: a method that defers calls, called <em>from</em> a static initializer, or a body
 * that needs a lock its creator holds while it waits, can leave a worker waiting for the
 * creator and the creator for the worker — as with any thread pool ({@code ForkJoinPool} and
 * parallel streams included). Compute such values after the class is initialized, or outside
 * the lock.
 * With {@code -Dspindle.spawn=never} every call runs at its declaration, so a woven program can be
 * stepped through as its serial code.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE_USE)
public @interface Future {
}
