package dev.spindle.agent;

import dev.spindle.weaver.ClassHierarchy;
import dev.spindle.weaver.Refusal;
import dev.spindle.weaver.WeaveResult;
import dev.spindle.weaver.Weaver;
import dev.spindle.weaver.WovenMethod;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;

/**
 * Weaves each loading class that mentions {@code dev/spindle/Future} (a byte search first, so the
 * other classes cost almost nothing). Super classes for frames are read as resources of the
 * defining loader — never loaded. Whatever goes wrong, the class is defined as it was and a
 * warning says why.
 */
final class WeavingTransformer implements ClassFileTransformer {
    private static final byte[] MARK = "Ldev/spindle/Future;".getBytes(StandardCharsets.UTF_8);

    private final boolean verbose;
    private final PrintStream log;

    WeavingTransformer(boolean verbose, PrintStream log) {
        this.verbose = verbose;
        this.log = log;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) {
        if (className == null || redefined != null || !contains(bytes, MARK)) {
            return null;
        }
        try {
            ClassHierarchy h = ClassHierarchy.ofLoader(loader).withFirst(n -> n.equals(className) ? bytes : null);
            WeaveResult r = new Weaver(h).weave(bytes);
            for (Refusal f : r.refusals()) {
                log.println("spindle-agent: warning: left unwoven: " + f);
            }
            if (verbose) {
                for (WovenMethod m : r.woven()) {
                    log.println("spindle-agent: woven " + m);
                }
            }
            return r.bytes();
        } catch (RuntimeException | LinkageError e) {
            log.println("spindle-agent: warning: left unwoven: " + className.replace('/', '.') + ": " + e);
            return null;
        }
    }

    static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0, n = hay.length - needle.length; i <= n; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
