package dev.spindle.bench.runner;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Whether HotSpot's JIT has work under way: a method being compiled by a compiler thread, or one
 * waiting in a compile queue. Read through the {@code Compiler.queue} diagnostic command (the one
 * {@code jcmd PID Compiler.queue} runs), about 0.1 ms a call.
 *
 * <p>Why the warm-up needs it beside the JVM's total compilation time: that total grows only when
 * a compilation <em>ends</em>. A large C2 compilation that started during a warm-up run and is
 * still running when the run ends leaves the run looking quiet, and the compiler thread then takes
 * one of this two-core machine's cores from the first timed runs (LUAppl: a first timed run more
 * than 1.25× the JVM's median, e.g. 30–40 ms against 19, in 4 JVMs of 26; 3 of 84 with this check).
 */
final class CompilerQueue {
    private static final ObjectName COMMANDS = commands();

    private CompilerQueue() {
    }

    /** @return whether this JVM offers the command (HotSpot does); without it {@link #busy} is always false */
    static boolean available() {
        return COMMANDS != null;
    }

    /**
     * @return true if a method is being compiled or waits to be; false if the JIT is idle or the
     *         JVM has no such diagnostic command (then only the compilation time decides)
     */
    static boolean busy() {
        if (COMMANDS == null) {
            return false;
        }
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            return listsMethod((String) server.invoke(COMMANDS, "compilerQueue", null, null));
        } catch (JMException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether the command's text names a method. It lists the current compiles, then each
     * compiler's queue ("Empty" when there is none), one method per line as
     * {@code id tier Class::method (size)}.
     *
     * @param text the command's output
     * @return true if any line names a method
     */
    static boolean listsMethod(String text) {
        for (String line : text.split("\n")) {
            if (line.contains("::")) {
                return true;
            }
        }
        return false;
    }

    private static ObjectName commands() {
        try {
            ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            return ManagementFactory.getPlatformMBeanServer().isRegistered(name) ? name : null;
        } catch (JMException | RuntimeException e) {
            return null;
        }
    }
}
