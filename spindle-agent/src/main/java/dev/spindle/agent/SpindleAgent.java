package dev.spindle.agent;

import java.lang.instrument.Instrumentation;

/**
 * {@code java -javaagent:spindle-agent.jar[=quiet] -cp app.jar Main}: weaves the {@code @Future}
 * variables of every class as it loads. A method the weaver cannot rewrite is left as it was,
 * with a warning on standard error naming class, method, line and reason ({@code =quiet} drops
 * the report of what was woven, not the warnings). Classes woven at build time are recognised by
 * their marker and passed through. The agent only starts from the command line: it never attaches
 * itself to a running JVM.
 */
public final class SpindleAgent {
    private SpindleAgent() {
    }

    /**
     * Installs the weaving transformer.
     *
     * @param args {@code quiet} or {@code verbose} (default: warnings only)
     * @param inst the instrumentation
     */
    public static void premain(String args, Instrumentation inst) {
        boolean verbose = "verbose".equals(args);
        inst.addTransformer(new WeavingTransformer(verbose, System.err), false);
    }
}
