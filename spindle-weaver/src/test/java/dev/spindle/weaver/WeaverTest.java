package dev.spindle.weaver;

import dev.spindle.runtime.SpindlePool;
import dev.spindle.runtime.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The weaver's guarantees besides conformance: refusals, idempotence, determinism, debug info, bad input, the CLI. */
class WeaverTest {
    private static Map<String, byte[]> plain;
    private static Map<String, byte[]> woven;

    @BeforeAll
    static void compile() {
        plain = Corpus.compile(Corpus.resourceDir("corpus/corpus"), "-g");
        woven = Corpus.weaveAll(plain);
    }

    private static Weaver weaver(Map<String, byte[]> classes) {
        return new Weaver(ClassHierarchy.ofLoader(WeaverTest.class.getClassLoader()).withFirst(classes::get));
    }

    // ------------------------------------------------------------------ unsupported shapes

    @Test
    void everyUnsupportedShapeIsRefusedWithClassMethodLineAndReason() {
        Map<String, byte[]> bad = Corpus.compile(Corpus.resourceDir("corpus/bad"), "-g");
        Map<String, String> expected = Map.of(
                "bad/BadConstant", "is a constant, not a method call",
                "bad/BadArithmetic", "is an arithmetic expression, not a method call",
                "bad/BadConditional", "is the result of a conditional expression",
                "bad/BadNew", "a new object (a constructor call), not a method call",
                "bad/BadField", "@Future on field field",
                "bad/BadParameter", "@Future on a parameter",
                "bad/BadTypeArgument", "type",
                "bad/BadLambdaInitializer", "made by invokedynamic");
        Weaver w = weaver(bad);
        for (Map.Entry<String, String> e : expected.entrySet()) {
            WeaveResult r = w.weave(bad.get(e.getKey()));
            assertNull(r.bytes(), e.getKey() + " must be left untouched");
            assertEquals(1, r.refusals().size(), e.getKey() + ": " + r.refusals());
            Refusal f = r.refusals().get(0);
            assertEquals(e.getKey().replace('/', '.'), f.className());
            assertTrue(f.reason().contains(e.getValue()), e.getKey() + ": " + f.reason());
            if (!e.getKey().equals("bad/BadField")) {
                assertTrue(f.method().startsWith("m("), f.toString());
                assertTrue(f.line() > 0, "no line in " + f);
                assertTrue(f.toString().contains("(line " + f.line() + ")"), f.toString());
            }
        }
    }

    @Test
    void javacRejectsFutureOnVar(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("V.java"), "class V { static int f() { return 1; } "
                + "int m() { @dev.spindle.Future var x = f(); return x; } }");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Corpus.compile(dir));
        assertTrue(e.getMessage().contains("V.java:1") && e.getMessage().contains("not applicable"), e.getMessage());
    }

    @Test
    void aRefusedMethodIsLeftWhileOtherMethodsOfTheClassAreWoven(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("Mixed.java"), """
                class Mixed {
                    static int f(int x) { return x + 1; }
                    static int good() { @dev.spindle.Future int a = f(1); return a; }
                    static int bad(int k) { @dev.spindle.Future int a = k * 2; return a; }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        WeaveResult r = weaver(classes).weave(classes.get("Mixed"));
        assertEquals(1, r.woven().size());
        assertEquals("good()I", r.woven().get(0).method());
        assertEquals(1, r.refusals().size());
        assertEquals("bad(I)I", r.refusals().get(0).method());
        assertEquals(4, r.refusals().get(0).line());
    }

    @Test
    void aMethodWhoseWovenCodeWouldExceedTheJvmLimitIsRefusedAndTheRestWoven(@TempDir Path dir) throws IOException {
        // javac accepts up to 65535 bytes of code; weaving adds some. ASM's MethodTooLargeException
        // escaped the weaver until 2026-11-26 (the CLI printed its stack trace).
        StringBuilder src = new StringBuilder("""
                class Huge {
                    static int f(int x) { return x + 1; }
                    static int small() { @dev.spindle.Future int a = f(1); return a; }
                    static int huge(int n) {
                        int s = 0;
                """);
        for (int k = 0; k < 40; k++) {
            src.append("        @dev.spindle.Future int f").append(k).append(" = f(n + ").append(k).append(");\n");
        }
        for (int i = 0; i < 4050; i++) {
            src.append("        s += (n * ").append(i).append(") ^ (s >>> 3) + ").append(i).append(";\n");
        }
        src.append("        return s");
        for (int k = 0; k < 40; k++) {
            src.append(" + f").append(k);
        }
        src.append(";\n    }\n}\n");
        Files.writeString(dir.resolve("Huge.java"), src);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        WeaveResult r = weaver(classes).weave(classes.get("Huge"));
        assertEquals(List.of("small()I"), r.woven().stream().map(WovenMethod::method).toList());
        assertEquals(1, r.refusals().size(), r.refusals().toString());
        Refusal refusal = r.refusals().get(0);
        assertEquals("huge(I)I", refusal.method());
        assertEquals(5, refusal.line());
        assertTrue(refusal.reason().contains("65535"), refusal.reason());
        assertEquals(0, callsTo(r.bytes(), "huge", false, "begin"), "the refused method was changed");
        assertEquals(1, callsTo(r.bytes(), "small", false, "begin") + callsTo(r.bytes(), "small", true, "begin"));
    }

    @Test
    void aDeclarationInAFinallyBlockIsWovenInEveryCopyJavacEmits(@TempDir Path dir) throws IOException {
        // javac emits the finally block once per way out of the try (here: the return, the normal
        // path and the exception handler), each copy with its own store and slot, under one
        // annotation; each copy is a @Future variable of its own.
        Files.writeString(dir.resolve("Fin.java"), """
                class Fin {
                    static int f(int x) { return x + 1; }
                    static int m(int k) {
                        int r = 0;
                        try {
                            if (k > 2) return f(k);
                            r = f(2);
                        } finally {
                            @dev.spindle.Future int x = f(k + 1);
                            r += x;
                        }
                        return r;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        WeaveResult r = weaver(classes).weave(classes.get("Fin"));
        assertEquals(List.of(), r.refusals());
        assertEquals(1, r.woven().size());
        assertEquals(3, r.woven().get(0).variables(), r.woven().toString());
        assertEquals(3, callsTo(r.bytes(), "m", false, "begin") + callsTo(r.bytes(), "m", true, "begin"),
                "one spawn decision per copy of the finally block");
    }

    @Test
    void aCallInAStaticInitializerRunsAtItsDeclaration(@TempDir Path dir) throws IOException {
        // A worker running the call would need the class initialized, and the initialization
        // waits for the call: deferred, this deadlocked whenever the call was stolen. Pinned
        // like a call under a monitor, it is never offered to another thread.
        Files.writeString(dir.resolve("Init.java"), """
                class Init {
                    static int f(int x) { return x + 1; }
                    static final int VALUE;
                    static {
                        @dev.spindle.Future int x = f(1);
                        VALUE = x;
                    }
                    static int deferrable() { @dev.spindle.Future int y = f(2); return y; }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        WeaveResult r = weaver(classes).weave(classes.get("Init"));
        assertEquals(List.of(), r.refusals());
        assertEquals(List.of("<clinit>()V", "deferrable()I"), r.woven().stream().map(WovenMethod::method).sorted().toList());
        assertEquals(0, callsTo(r.bytes(), "<clinit>", false, "begin"), "a static initializer never defers");
        assertEquals(1, callsTo(r.bytes(), "deferrable", false, "begin")
                + callsTo(r.bytes(), "deferrable", true, "begin"), "an ordinary method still asks");
    }

    // ------------------------------------------------------------------ guarantees of the output

    /** Calls to {@code FutureCall.name} in the method's deferring copy (the whole woven code). */
    private static long callsTo(byte[] cls, String method, String name) {
        return callsTo(cls, method, true, name);
    }

    /** Calls to {@code FutureCall.name} in the method's deferring copy, or in the method itself. */
    private static long callsTo(byte[] cls, String method, boolean deferringCopy, String name) {
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(cls).accept(cn, 0);
        return cn.methods.stream().filter(m -> m.name.equals(method) && m.desc.contains(DeferringSplit.MARKER) == deferringCopy)
                .flatMap(m -> Arrays.stream(m.instructions.toArray()))
                .filter(i -> i instanceof org.objectweb.asm.tree.MethodInsnNode mi && mi.owner.equals(MethodWeaver.CALL)
                        && mi.name.equals(name))
                .count();
    }

    @Test
    void aWovenMethodIsSplitIntoACopyThatDefersAndOneThatDoesNot(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Split.java"), """
                class Split {
                    static long fib(int n) {
                        if (n < 2) return n;
                        @dev.spindle.Future long a = fib(n - 1);
                        long b = fib(n - 2);
                        return a + b;
                    }
                    long twice(long x, int k) {
                        @dev.spindle.Future long a = fib(k);
                        @dev.spindle.Future long b = fib(k + 1);
                        return x + a + b;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        byte[] w = weaver(classes).weave(classes.get("Split")).bytes();
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(w).accept(cn, 0);
        for (String[] m : new String[][] {{"fib", "(I)J", "(I" + DeferringSplit.MARKER + ")J"},
                {"twice", "(JI)J", "(JI" + DeferringSplit.MARKER + ")J"}}) {
            var serial = cn.methods.stream().filter(x -> x.name.equals(m[0]) && x.desc.equals(m[1])).findFirst().orElseThrow();
            var copy = cn.methods.stream().filter(x -> x.name.equals(m[0]) && x.desc.equals(m[2])).findFirst()
                    .orElseThrow(() -> new AssertionError("no deferring copy " + m[0] + m[2]));
            assertEquals(org.objectweb.asm.Opcodes.ACC_PRIVATE | org.objectweb.asm.Opcodes.ACC_SYNTHETIC,
                    copy.access & ~org.objectweb.asm.Opcodes.ACC_STATIC, m[0] + ": the copy is private and synthetic");
            assertEquals(serial.access & org.objectweb.asm.Opcodes.ACC_STATIC, copy.access & org.objectweb.asm.Opcodes.ACC_STATIC);
        }
        assertEquals(1, callsTo(w, "fib", false, "mayDefer"), "fib asks once");
        var fibInsns = cn.methods.stream().filter(x -> x.name.equals("fib") && x.desc.equals("(I)J")).findFirst().orElseThrow()
                .instructions.toArray();
        int firstReturn = -1, ask = -1;
        for (int k = 0; k < fibInsns.length; k++) {
            if (firstReturn < 0 && fibInsns[k].getOpcode() == org.objectweb.asm.Opcodes.LRETURN) {
                firstReturn = k;
            }
            if (fibInsns[k] instanceof org.objectweb.asm.tree.MethodInsnNode mi && mi.name.equals("mayDefer")) {
                ask = k;
            }
        }
        assertTrue(firstReturn >= 0 && ask > firstReturn, "fib asks after its base case returns, not at its entry (return at "
                + firstReturn + ", ask at " + ask + ")");
        // the serial body is fib's worker variant now (WorkerParameter); its calls keep their lines
        String onWorker = "(I" + WorkerParameter.MARKER + ")J";
        var variantInsns = cn.methods.stream().filter(x -> x.name.equals("fib") && x.desc.equals(onWorker)).findFirst()
                .orElseThrow().instructions.toArray();
        int line = -1, callLine = -1;
        boolean asked = false;
        for (int k = 0; k < variantInsns.length && callLine < 0; k++) {
            if (variantInsns[k] instanceof org.objectweb.asm.tree.LineNumberNode ln) {
                line = ln.line;
            } else if (variantInsns[k] instanceof org.objectweb.asm.tree.MethodInsnNode mi && mi.name.equals("mayDeferOn")) {
                asked = true;
            } else if (asked && variantInsns[k] instanceof org.objectweb.asm.tree.MethodInsnNode mi && mi.name.equals("fib")
                    && mi.desc.equals(onWorker)) {
                callLine = line;
            }
        }
        assertEquals(4, callLine, "fib's future call keeps its own line after the ask");
        assertEquals(0, callsTo(w, "fib", false, "begin"), "fib itself makes every call at its declaration");
        assertEquals(1, callsTo(w, "fib", true, "begin"), "the copy decides per declaration");
        assertEquals(0, callsTo(w, "twice", false, "begin"));
        assertEquals(2, callsTo(w, "twice", true, "begin"));
        Class<?> c = new Corpus.Loader("split", Map.of("Split", w)).loadClass("Split");
        Method fib = c.getDeclaredMethod("fib", int.class);
        fib.setAccessible(true);
        java.lang.reflect.Constructor<?> ctor = c.getDeclaredConstructor();
        ctor.setAccessible(true);
        Object split = ctor.newInstance();
        Method twice = c.getDeclaredMethod("twice", long.class, int.class);
        twice.setAccessible(true);
        assertEquals(610L, fib.invoke(null, 15), "fib(15) on the calling thread");
        assertEquals(7L + 610 + 987, twice.invoke(split, 7L, 15), "twice on the calling thread");
        try (SpindlePool pool = new SpindlePool(2)) {
            long[] got = pool.invoke(new Task<long[]>() {
                @Override
                protected long[] compute() throws ReflectiveOperationException {
                    return new long[] {(Long) fib.invoke(null, 20), (Long) twice.invoke(split, 7L, 15)};
                }
            });
            assertEquals(6765L, got[0], "fib(20) on a pool of two");
            assertEquals(7L + 610 + 987, got[1], "twice on a pool of two");
        }
    }

    @Test
    void theSerialMethodLetsAFailureLeaveFromTheDeclarationWhereNoHandlerCouldTell(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Raise.java"), """
                class Raise {
                    static int boom(int k) {
                        if (k < 0) throw new IllegalStateException("boom " + k);
                        return k;
                    }
                    static int plain(int k) {
                        @dev.spindle.Future int a = boom(k);
                        int b = boom(k + 1);
                        return a + b;
                    }
                    static int caughtAtRead(int k) {
                        @dev.spindle.Future int a = boom(k);
                        try {
                            return a + 1;
                        } catch (IllegalStateException e) {
                            return -100;
                        }
                    }
                    static int oneOfTwo(int k) {
                        @dev.spindle.Future int a = boom(k);
                        @dev.spindle.Future int b = boom(k + 1);
                        int s = b;
                        try {
                            s += a;
                        } catch (IllegalStateException e) {
                            s = -100;
                        }
                        return s;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        byte[] w = weaver(classes).weave(classes.get("Raise")).bytes();
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(w).accept(cn, 0);
        // serial method: per-call catches left; deferring copy: per-call catches (one per declaration)
        for (Object[] m : new Object[][] {{"plain", 0, 1}, {"caughtAtRead", 1, 1}, {"oneOfTwo", 2, 2}}) {
            for (boolean copy : new boolean[] {false, true}) {
                String desc = copy ? "(I" + DeferringSplit.MARKER + ")I" : "(I)I";
                var mn = cn.methods.stream().filter(x -> x.name.equals(m[0]) && x.desc.equals(desc)).findFirst()
                        .orElseThrow(() -> new AssertionError("no method " + m[0] + desc));
                long catches = mn.tryCatchBlocks.stream().filter(t -> "java/lang/Throwable".equals(t.type)).count();
                assertEquals(((Integer) m[copy ? 2 : 1]).longValue(), catches, m[0] + (copy ? " (deferring copy)" : " (serial)")
                        + ": catches that keep a failure for the read");
            }
        }
        Class<?> c = new Corpus.Loader("raise", Map.of("Raise", w)).loadClass("Raise");
        try (SpindlePool pool = new SpindlePool(1)) {                 // one worker: every frame runs the serial method
            for (Object[] e : new Object[][] {{"plain", 3, "7"}, {"plain", -5, "boom -5"}, {"caughtAtRead", 3, "4"},
                    {"caughtAtRead", -5, "-100"}, {"oneOfTwo", 3, "7"}, {"oneOfTwo", -1, "-100"}, {"oneOfTwo", -5, "boom -4"}}) {
                Method m = c.getDeclaredMethod((String) e[0], int.class);
                m.setAccessible(true);
                String got = pool.invoke(new Task<String>() {
                    @Override
                    protected String compute() throws IllegalAccessException {
                        try {
                            return String.valueOf(m.invoke(null, e[1]));
                        } catch (InvocationTargetException x) {
                            return x.getCause() instanceof IllegalStateException ise ? ise.getMessage() : x.getCause().toString();
                        }
                    }
                });
                assertEquals(e[2], got, e[0] + "(" + e[1] + ") on a worker of a pool of one");
            }
        }
    }

    @Test
    void aSplitMethodWhoseBaseCaseHasEffectsResumesPastIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Resume.java"), """
                class Resume {
                    static int frames;
                    static long halves(int[] a, int lo, int hi) {
                        frames++;
                        int n = hi - lo; long scale = 3L; double w = n / 2.0; String tag = "t"; int[] same = a;
                        if (n == 1) { a[lo] = a[lo] * 2 + 1; return a[lo]; }
                        int mid = lo + (int) w;
                        @dev.spindle.Future long left = halves(same, lo, mid);
                        long right = halves(a, mid, hi);
                        return left + right + scale * tag.length();
                    }
                    static int mixed(int n) {
                        frames++;
                        Object o = n % 2 == 1 ? (Object) "s" : Integer.valueOf(n);
                        if (n < 2) return n;
                        @dev.spindle.Future int a = mixed(n - 1);
                        return a + mixed(n - 2) + o.hashCode() * 0;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        byte[] w = weaver(classes).weave(classes.get("Resume")).bytes();
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(w).accept(cn, 0);
        String resumed = "([III" + DeferringSplit.MARKER + "IJDLjava/lang/String;[I)J";
        assertTrue(cn.methods.stream().anyMatch(m -> m.name.equals("halves") && m.desc.equals(resumed)),
                "halves' copy receives the five locals live past its base case: " + cn.methods.stream()
                        .filter(m -> m.name.equals("halves")).map(m -> m.desc).toList());
        assertTrue(cn.methods.stream().anyMatch(m -> m.name.equals("mixed") && m.desc.equals("(I" + DeferringSplit.MARKER + ")I")),
                "mixed's local has two types past its base case: its copy starts at the entry");
        for (String[] m : new String[][] {{"halves", "([III)J", "LRETURN"}, {"mixed", "(I)I", "IRETURN"}}) {
            var insns = cn.methods.stream().filter(x -> x.name.equals(m[0]) && x.desc.equals(m[1])).findFirst().orElseThrow()
                    .instructions.toArray();
            int firstReturn = -1, ask = -1;
            for (int k = 0; k < insns.length; k++) {
                if (firstReturn < 0 && insns[k].getOpcode() >= org.objectweb.asm.Opcodes.IRETURN
                        && insns[k].getOpcode() <= org.objectweb.asm.Opcodes.RETURN) {
                    firstReturn = k;
                }
                if (insns[k] instanceof org.objectweb.asm.tree.MethodInsnNode mi && mi.name.equals("mayDefer")) {
                    ask = k;
                }
            }
            if (m[0].equals("halves")) {
                assertTrue(firstReturn >= 0 && ask > firstReturn, "halves asks after its leaf returns (return at " + firstReturn
                        + ", ask at " + ask + ")");
            } else {
                assertTrue(ask >= 0 && ask < firstReturn, "mixed asks before its base case (ask at " + ask + ", return at "
                        + firstReturn + ")");
            }
        }
        Class<?> c = new Corpus.Loader("resume", Map.of("Resume", w)).loadClass("Resume");
        Method halves = c.getDeclaredMethod("halves", int[].class, int.class, int.class);
        halves.setAccessible(true);
        java.lang.reflect.Field frames = c.getDeclaredField("frames");
        frames.setAccessible(true);
        // plain Java: every leaf becomes 2v+1; each inner frame adds scale * tag.length() = 3
        int[] a = new int[29];
        long expected = 0;
        for (int i = 0; i < a.length; i++) {
            a[i] = i;
            expected += 2L * i + 1;
        }
        expected += 3L * (a.length - 1);
        try (SpindlePool pool = new SpindlePool(1)) {
            long got = pool.invoke(new Task<Long>() {
                @Override
                protected Long compute() throws ReflectiveOperationException {
                    return (Long) halves.invoke(null, a, 0, a.length);
                }
            });
            assertEquals(expected, got, "halves on a pool of one");
            assertEquals(2 * a.length - 1, frames.getInt(null), "each frame ran its prefix once (the copy resumed, it did not restart)");
            for (int i = 0; i < a.length; i++) {
                assertEquals(2 * i + 1, a[i], "leaf " + i + " written once");
            }
        }
    }

    @Test
    void checksThatCanNeverFireAreRemoved(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Checks.java"), """
                class Checks {
                    static long fib(int n) {
                        if (n < 2) return n;                      // before the declaration: nothing to settle
                        @dev.spindle.Future long a = fib(n - 1);
                        long b = fib(n - 2);
                        return a + b;                             // after the read: nothing outstanding
                    }
                    static long early(int n) {
                        @dev.spindle.Future long a = fib(n);
                        if (n > 5) return 0;                      // a may be outstanding: settled, failure raised
                        return a;
                    }
                    static long loop(int n) {
                        long s = 0;
                        for (int i = 0; i < n; i++) {
                            @dev.spindle.Future long a = fib(i);  // the previous iteration's is read already
                            s += a;
                        }
                        return s;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        byte[] w = weaver(classes).weave(classes.get("Checks")).bytes();
        assertEquals(1, callsTo(w, "fib", "settle"), "fib: only the catch-all settles");
        assertEquals(0, callsTo(w, "fib", "throwIfFailed"), "fib: no settle can run before a normal exit");
        assertEquals(1, callsTo(w, "fib", "touchLong"));
        assertEquals(2, callsTo(w, "early", "settle"), "early: the return before the read, and the catch-all");
        assertEquals(1, callsTo(w, "early", "throwIfFailed"), "early: only the return after a settle");
        assertEquals(1, callsTo(w, "loop", "touchLong"));
        Class<?> c = new Corpus.Loader("checks", Map.of("Checks", w)).loadClass("Checks");
        try (SpindlePool pool = new SpindlePool(2)) {
            for (String m : List.of("fib", "early", "loop")) {
                Method mm = c.getDeclaredMethod(m, int.class);
                mm.setAccessible(true);
                long got = pool.invoke(new Task<Long>() {
                    @Override
                    protected Long compute() {
                        try {
                            return (Long) mm.invoke(null, 15);
                        } catch (ReflectiveOperationException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                });
                long want = switch (m) {
                    case "fib" -> 610L;
                    case "early" -> 0L;
                    default -> 986L;                          // fib(0) + ... + fib(14) = fib(16) - 1
                };
                assertEquals(want, got, m + "(15)");
            }
        }
    }

    @Test
    void weavingTwiceChangesNothing() {
        Weaver w = weaver(woven);
        for (Map.Entry<String, byte[]> e : woven.entrySet()) {
            WeaveResult again = w.weave(e.getValue());
            assertNull(again.bytes(), e.getKey() + " was woven a second time");
        }
        assertTrue(Weaver.isWoven(woven.get("corpus/Shapes")));
        assertFalse(Weaver.isWoven(plain.get("corpus/Shapes")));
    }

    @Test
    void weavingIsDeterministic() {
        Map<String, byte[]> again = Corpus.weaveAll(plain);
        for (String k : plain.keySet()) {
            assertArrayEquals(woven.get(k), again.get(k), k);
        }
        Map<String, byte[]> recompiled = Corpus.compile(Corpus.resourceDir("corpus/corpus"), "-g");
        Map<String, byte[]> third = Corpus.weaveAll(recompiled);
        assertArrayEquals(woven.get("corpus/Shapes"), third.get("corpus/Shapes"));
    }

    @Test
    void lineNumbersSurviveAndGeneratedMembersAreSynthetic() throws Exception {
        Class<?> p = Class.forName("corpus.Shapes", true, new Corpus.Loader("plain", plain));
        Class<?> w = Class.forName("corpus.Shapes", true, new Corpus.Loader("woven", woven));
        for (String shape : List.of("shapeContinuationThrows", "shapeThrownAtRead")) {
            StackTraceElement pe = firstFrameIn(p, shape);
            StackTraceElement we = firstFrameIn(w, shape);
            assertEquals(pe.getLineNumber(), we.getLineNumber(), shape);
        }
        long generated = Arrays.stream(w.getDeclaredMethods()).filter(m -> m.getName().startsWith("spindle$")).count();
        assertTrue(generated > 40, "generated methods: " + generated);
        for (Method m : w.getDeclaredMethods()) {
            if (m.getName().startsWith("spindle$")) {
                assertTrue(m.isSynthetic(), m + " is not synthetic");
            }
        }
    }

    /**
     * The method's frame in the exception it throws — or, when a woven call ran on a worker of the
     * default pool (a worker about to park asks this thread's latent stack for work, so whether
     * it does depends on timing), in the {@code TouchSite} the read added: the frame of the read.
     */
    private static StackTraceElement firstFrameIn(Class<?> c, String method) throws Exception {
        try {
            c.getDeclaredMethod(method).invoke(null);
        } catch (InvocationTargetException e) {
            List<Throwable> traces = new java.util.ArrayList<>(List.of(e.getCause()));
            traces.addAll(List.of(e.getCause().getSuppressed()));
            for (Throwable t : traces) {
                for (StackTraceElement s : t.getStackTrace()) {
                    if (s.getClassName().equals(c.getName()) && s.getMethodName().equals(method)) {
                        return s;
                    }
                }
            }
        }
        throw new AssertionError(method + " did not throw from its own frame, nor name it in a touch site");
    }

    @Test
    void weavingNeverLoadsOrInitializesTheWovenClass(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("Init.java"), """
                class Init {
                    static { System.setProperty("spindle.test.initialized", "yes"); }
                    static int f(int x) { return x; }
                    static int m() { @dev.spindle.Future int a = f(3); Init i = null; Object o = a > 2 ? i : new Init(); return a; }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        WeaveResult r = weaver(classes).weave(classes.get("Init"));
        assertTrue(r.changed(), r.refusals().toString());
        assertNull(System.getProperty("spindle.test.initialized"), "weaving ran the class's static initializer");
    }

    @Test
    void theInlinePathAllocatesNothing() throws Exception {
        Class<?> w = Class.forName("corpus.Shapes", true, new Corpus.Loader("woven-alloc", woven));
        Method fib = w.getDeclaredMethod("fib", int.class);
        fib.setAccessible(true);
        try (SpindlePool pool = new SpindlePool(1)) {
            long[] bytes = pool.invoke(new Task<long[]>() {
                @Override
                protected long[] compute() throws Exception {
                    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                    long best = Long.MAX_VALUE;
                    for (int round = 0; round < 5; round++) {
                        long before = mx.getCurrentThreadAllocatedBytes();
                        Object v = fib.invoke(null, 24);
                        long after = mx.getCurrentThreadAllocatedBytes();
                        assertEquals(46368, v);
                        best = Math.min(best, after - before);
                    }
                    return new long[] {best};
                }
            });
            long potentialFutures = 46367;              // one per call with n >= 2
            assertTrue(bytes[0] < potentialFutures / 10, bytes[0] + " bytes allocated for " + potentialFutures
                    + " potential futures");
        }
    }

    // ------------------------------------------------------------------ the object API's serial split

    private static org.objectweb.asm.tree.ClassNode node(byte[] b) {
        org.objectweb.asm.tree.ClassNode cn = new org.objectweb.asm.tree.ClassNode();
        new org.objectweb.asm.ClassReader(b).accept(cn, 0);
        return cn;
    }

    private static List<org.objectweb.asm.tree.MethodNode> methodsNamed(org.objectweb.asm.tree.ClassNode cn, String name) {
        return cn.methods.stream().filter(m -> m.name.equals(name)).toList();
    }

    private static List<String> calls(org.objectweb.asm.tree.MethodNode mn) {
        List<String> c = new java.util.ArrayList<>();
        for (var i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof org.objectweb.asm.tree.MethodInsnNode m) {
                c.add(m.owner + "." + m.name);
            } else if (i instanceof org.objectweb.asm.tree.InvokeDynamicInsnNode d) {
                c.add("indy " + d.name);
            }
        }
        return c;
    }

    @Test
    void theBaseCaseIsTestedAtACallOnlyWhereItCanNeitherThrowNorAct() {
        WeaveResult r = weaver(plain).weave(plain.get("corpus/Shapes"));
        java.util.Map<String, Integer> baseCases = new java.util.HashMap<>();
        r.woven().forEach(m -> baseCases.put(m.method(), m.baseCases()));
        // fib's `if (n < 2) return n;` at its two calls in the serial method and again in the deferring copy
        assertTrue(baseCases.get("fib(I)I") >= 2, r.woven().toString());
        assertTrue(baseCases.get("halves(JD)J") >= 2, "two-slot arguments and a local written by the base case: " + baseCases);
        assertTrue(baseCases.get("below(I)I") >= 2, baseCases.toString());
        assertEquals(0, baseCases.get("firstZero([II)I"), "an array load may throw: the base case stays in its frame");
        assertEquals(0, baseCases.get("lockedFib(I)I"), "a synchronized method's base case runs under its lock");
        assertTrue(baseCases.get("boxed(I)I") >= 2, "a call under `new Box(…)`: " + baseCases);
        assertEquals(0, baseCases.get("looped(I)I"), "a prefix with a backward branch is not copied");

        // the serial fib (its worker variant, WorkerParameter) tests n - 1 < 2 before it calls
        // fib(n - 1): a compare, then the arguments and the worker, then the call
        org.objectweb.asm.tree.ClassNode cn = node(r.bytes());
        String onWorker = "(I" + WorkerParameter.MARKER + ")I";
        org.objectweb.asm.tree.MethodNode serial = methodsNamed(cn, "fib").stream()
                .filter(m -> m.desc.equals(onWorker)).findFirst().orElseThrow();
        int calls = 0;
        for (var i = serial.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof org.objectweb.asm.tree.MethodInsnNode m && m.name.equals("fib") && m.desc.equals(onWorker)) {
                calls++;
                var before = m.getPrevious();
                while (before.getOpcode() < 0 || before.getOpcode() == org.objectweb.asm.Opcodes.ILOAD
                        || before.getOpcode() == org.objectweb.asm.Opcodes.ALOAD) {
                    before = before.getPrevious();
                }
                // the fall-through of the copied test: `if (n < 2)` jumps past the return
                assertEquals(org.objectweb.asm.Opcodes.GOTO, before.getOpcode(), "the copied return, just before the call " + calls);
            }
        }
        assertEquals(2, calls, "the serial fib's two calls");
    }

    @Test
    void serialCallsPassTheirWorker(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Walk.java"), """
                class Walk {
                    static int failAt = -1;
                    static int frames;
                    static long sum(int n) {
                        if (n == 0) return 0;
                        if (n == failAt) throw new IllegalStateException("at " + n);
                        @dev.spindle.Future long a = sum(n - 1);
                        return a + n + twice(n % 3);
                    }
                    static long twice(int n) {
                        if (n <= 0) return 0;
                        @dev.spindle.Future long a = sum(n - 1);
                        return 2 * a;
                    }
                    static long counted(int n) {
                        frames++;
                        if (n == 0) return 0;
                        @dev.spindle.Future long a = counted(n - 1);
                        return a + n;
                    }
                    static long hop(int n) {
                        return n <= 1 ? n : viaHop(n - 1);
                    }
                    static long viaHop(int n) {
                        if (n <= 0) return 0;
                        @dev.spindle.Future long a = hop(n);
                        return a + 1;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        byte[] bytes = weaver(classes).weave(classes.get("Walk")).bytes();
        org.objectweb.asm.tree.ClassNode cn = node(bytes);
        String onWorker = "(I" + WorkerParameter.MARKER + ")J";
        for (String name : List.of("sum", "twice")) {
            org.objectweb.asm.tree.MethodNode entry = methodsNamed(cn, name).stream().filter(m -> m.desc.equals("(I)J"))
                    .findFirst().orElseThrow();
            org.objectweb.asm.tree.MethodNode variant = methodsNamed(cn, name).stream().filter(m -> m.desc.equals(onWorker))
                    .findFirst().orElseThrow(() -> new AssertionError(name + " has a worker variant: " + methodsNamed(cn, name)
                            .stream().map(m -> m.desc).toList()));
            assertEquals(org.objectweb.asm.Opcodes.ACC_PRIVATE | org.objectweb.asm.Opcodes.ACC_STATIC
                    | org.objectweb.asm.Opcodes.ACC_SYNTHETIC, variant.access, name);
            // the entry: base case, prologue, then only `return variant(n, serialWorker())`
            assertEquals(List.of("dev/spindle/future/FutureCall.mayDefer()Z", "Walk." + name + "(I" + DeferringSplit.MARKER + ")J",
                    "dev/spindle/future/FutureCall.serialWorker()" + WorkerParameter.MARKER, "Walk." + name + onWorker),
                    typedCalls(entry).stream().filter(c -> !c.contains("settle") && !c.contains("merge")).toList(), name);
            List<String> inVariant = typedCalls(variant);
            assertTrue(inVariant.contains("dev/spindle/future/FutureCall.mayDeferOn(" + WorkerParameter.MARKER + ")Z"), inVariant.toString());
            assertFalse(inVariant.contains("dev/spindle/future/FutureCall.mayDefer()Z"), inVariant.toString());
            assertFalse(inVariant.stream().anyMatch(c -> c.equals("Walk.sum(I)J") || c.equals("Walk.twice(I)J")),
                    "the variant's serial calls pass the worker on: " + inVariant);
        }
        // counted's prefix has an effect (frames++): its entry, having run the prefix, calls a
        // resume variant (marked by a boolean it never reads) that starts at its prologue; the
        // recursion goes through the plain variant, which runs the prefix itself and carries no flag
        String resuming = "(I" + WorkerParameter.MARKER + "Z)J";
        org.objectweb.asm.tree.MethodNode resume = methodsNamed(cn, "counted").stream().filter(m -> m.desc.equals(resuming))
                .findFirst().orElseThrow(() -> new AssertionError(methodsNamed(cn, "counted").stream().map(m -> m.desc).toList()));
        org.objectweb.asm.tree.MethodNode countedVariant = methodsNamed(cn, "counted").stream()
                .filter(m -> m.desc.equals(onWorker)).findFirst().orElseThrow();
        for (org.objectweb.asm.tree.MethodNode m : List.of(resume, countedVariant)) {
            assertFalse(typedCalls(m).contains("Walk.counted" + resuming), "only the entry resumes: " + typedCalls(m));
            assertTrue(typedCalls(m).contains("Walk.counted" + onWorker), typedCalls(m).toString());
        }
        int flagSlot = 2;                                              // n, the worker, then the marking boolean
        for (org.objectweb.asm.tree.AbstractInsnNode i : resume.instructions) {
            assertFalse(i instanceof org.objectweb.asm.tree.VarInsnNode v && v.getOpcode() == org.objectweb.asm.Opcodes.ILOAD
                    && v.var == flagSlot, "the resume variant never reads its marking boolean");
        }
        assertTrue(methodsNamed(cn, "hop").stream().anyMatch(m -> m.desc.equals(onWorker)),
                "a static helper between two woven methods passes the worker on: " + methodsNamed(cn, "hop").stream()
                        .map(m -> m.desc).toList());
        org.objectweb.asm.tree.MethodNode countedEntry = methodsNamed(cn, "counted").stream().filter(m -> m.desc.equals("(I)J"))
                .findFirst().orElseThrow();
        assertTrue(typedCalls(countedEntry).contains("Walk.counted" + resuming), typedCalls(countedEntry).toString());

        Class<?> c = new Corpus.Loader("walk", Map.of("Walk", bytes)).loadClass("Walk");
        Method sum = c.getDeclaredMethod("sum", int.class);
        sum.setAccessible(true);
        java.lang.reflect.Field failAt = c.getDeclaredField("failAt");
        failAt.setAccessible(true);
        long expected = sumOf(40);
        try (SpindlePool pool = new SpindlePool(1)) {
            long got = pool.invoke(new Task<Long>() {
                @Override
                protected Long compute() throws Exception {
                    return (Long) sum.invoke(null, 40);
                }
            });
            assertEquals(expected, got, "sum(40) on a worker");
            failAt.setInt(null, 5);
            Throwable thrown = assertThrows(Throwable.class, () -> pool.invoke(new Task<Long>() {
                @Override
                protected Long compute() throws Exception {
                    return (Long) sum.invoke(null, 40);
                }
            }));
            while (!(thrown instanceof IllegalStateException) && thrown.getCause() != null) {
                thrown = thrown.getCause();
            }
            assertEquals("at 5", thrown.getMessage());
            List<StackTraceElement> walk = Arrays.stream(thrown.getStackTrace()).filter(e -> e.getClassName().equals("Walk")).toList();
            assertTrue(walk.stream().allMatch(e -> e.getMethodName().equals("sum") || e.getMethodName().equals("twice")),
                    "every frame of the walk names the method as written: " + walk);
            assertEquals(6, walk.get(0).getLineNumber(), "the throw's line: " + walk.get(0));
            assertTrue(walk.size() >= 36, "a frame per level from 40 down to 5, the entry's besides: " + walk.size());

            Method counted = c.getDeclaredMethod("counted", int.class);
            counted.setAccessible(true);
            java.lang.reflect.Field frames = c.getDeclaredField("frames");
            frames.setAccessible(true);
            long got30 = pool.invoke(new Task<Long>() {
                @Override
                protected Long compute() throws Exception {
                    return (Long) counted.invoke(null, 30);
                }
            });
            assertEquals(465L, got30);
            assertEquals(31, frames.getInt(null), "the prefix's effect ran once per call on a worker");
            frames.setInt(null, 0);
            assertEquals(465L, (Long) counted.invoke(null, 30));
            assertEquals(31, frames.getInt(null), "and once per call on a thread that is not a worker");

            Method viaHop = c.getDeclaredMethod("viaHop", int.class);
            viaHop.setAccessible(true);
            assertEquals(21L, (long) pool.invoke(new Task<Long>() {
                @Override
                protected Long compute() throws Exception {
                    return (Long) viaHop.invoke(null, 20);
                }
            }), "through the helper's variant");
        }
    }

    /** What Walk.sum returns for n, computed plainly. */
    private static long sumOf(int n) {
        long s = 0;
        for (int k = 1; k <= n; k++) {
            s += k + (k % 3 <= 0 ? 0 : 2 * sumOf(k % 3 - 1));
        }
        return s;
    }

    /** The calls of {@code mn}: owner.name followed by the descriptor. */
    private static List<String> typedCalls(org.objectweb.asm.tree.MethodNode mn) {
        List<String> c = new java.util.ArrayList<>();
        for (var i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof org.objectweb.asm.tree.MethodInsnNode m) {
                c.add(m.owner + "." + m.name + m.desc);
            }
        }
        return c;
    }

    @Test
    void theBaseCaseRewriteAloneLeavesTheFuturesUnwoven() {
        Weaver w = weaver(plain);
        byte[] only = w.baseCasesAtCallsOnly(plain.get("corpus/Shapes"));
        assertTrue(only != null, "Shapes has recursions with base cases");
        org.objectweb.asm.tree.ClassNode cn = node(only);
        for (org.objectweb.asm.tree.MethodNode m : cn.methods) {
            assertFalse(m.name.startsWith("spindle$"), "no future woven: " + m.name);
            for (var i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof org.objectweb.asm.tree.MethodInsnNode c) {
                    assertFalse(c.owner.startsWith("dev/spindle/future/"), m.name + " calls " + c.owner + "." + c.name);
                }
            }
        }
        assertNull(w.baseCasesAtCallsOnly(woven.get("corpus/Shapes")), "a woven class is left alone");
        assertThrows(Weaver.InvalidClassFileException.class, () -> w.baseCasesAtCallsOnly(new byte[] {1, 2, 3}));
    }

    @Test
    void aMethodOfObjectApiFuturesIsSplitIntoASerialMethodAndTheMethodAsWritten() {
        WeaveResult r = weaver(plain).weave(plain.get("corpus/ObjectFutures"));
        assertTrue(r.changed(), r.refusals().toString());
        assertTrue(r.refusals().isEmpty(), r.refusals().toString());
        assertTrue(r.woven().stream().anyMatch(m -> m.method().equals("fibSupplier(I)I") && m.variables() == 0 && m.inPlace() == 1),
                r.woven().toString());
        assertTrue(r.woven().stream().anyMatch(m -> m.toString().equals(
                "corpus.ObjectFutures.fibIntForms(I)I: split, 2 object-API future calls made in place by its serial method,"
                        + " the base case tested at 1 call")),
                r.woven().toString());
        org.objectweb.asm.tree.ClassNode cn = node(r.bytes());

        // the serial method asks first, then calls the lambda's implementation: no lambda, no factory
        List<org.objectweb.asm.tree.MethodNode> fib = methodsNamed(cn, "fibSupplier");
        assertEquals(2, fib.size(), "fibSupplier and its deferring copy");
        org.objectweb.asm.tree.MethodNode serial = fib.stream().filter(m -> m.desc.equals("(I)I")).findFirst().orElseThrow();
        org.objectweb.asm.tree.MethodNode deferring = fib.stream().filter(m -> !m.desc.equals("(I)I")).findFirst().orElseThrow();
        assertEquals("(ILdev/spindle/future/SerialFutures;)I", deferring.desc);
        assertTrue((deferring.access & org.objectweb.asm.Opcodes.ACC_SYNTHETIC) != 0, "the deferring copy is not synthetic");
        List<String> sc = calls(serial);
        assertEquals("dev/spindle/future/SerialFutures.mayKeepLatent", sc.get(0), sc.toString());
        assertTrue(sc.contains("corpus/ObjectFutures.lambda$fibSupplier$0"), sc.toString());
        assertTrue(sc.contains("dev/spindle/future/SerialFutures.handle"), sc.toString());
        assertEquals(1, sc.stream().filter(x -> x.startsWith("dev/spindle/future/SerialFutures.handle")).count(),
                "one builder for the value and the failure: " + sc);
        // the future is counted at its site, before its body's call, once
        assertEquals(1, sc.stream().filter(x -> x.equals("dev/spindle/future/SerialFutures.countMadeInPlace")).count(), sc.toString());
        assertTrue(sc.indexOf("dev/spindle/future/SerialFutures.countMadeInPlace") < sc.indexOf("corpus/ObjectFutures.lambda$fibSupplier$0"),
                "the count comes after the body's call: " + sc);
        assertFalse(sc.stream().anyMatch(x -> x.startsWith("dev/spindle/future/SerialFutures.made")), "a builder that counts again: " + sc);
        assertFalse(sc.stream().anyMatch(x -> x.startsWith("dev/spindle/future/SerialFutures.failed")), sc.toString());
        // the handle is the builder's, on every path: its touch only reports the final cell
        assertTrue(sc.contains("dev/spindle/future/SerialFutures.touchInPlace"), sc.toString());
        assertFalse(sc.contains("dev/spindle/future/SerialFutures.touch"), sc.toString());
        assertFalse(sc.contains("indy get"), "the serial method still creates the lambda: " + sc);
        assertFalse(sc.contains("dev/spindle/Spindle.future"), sc.toString());
        List<String> dc = calls(deferring);
        assertTrue(dc.contains("indy get") && dc.contains("dev/spindle/Spindle.future"), "the deferring copy is not the method as written: " + dc);

        // a method reference over a reference parameter: called directly after a cast
        List<String> sum = calls(methodsNamed(cn, "sum").stream().filter(m -> m.desc.equals("(Lcorpus/ObjectFutures$Node;)J"))
                .findFirst().orElseThrow());
        assertTrue(sum.contains("corpus/ObjectFutures.sum") && !sum.contains("java/util/function/ToLongFunction.applyAsLong"), sum.toString());
        // the primitive touches become the serial method's own, and the method as written keeps the handle's
        assertTrue(sum.contains("dev/spindle/future/SerialFutures.touchLongInPlace") && !sum.contains("dev/spindle/future/LongFuture.touchLong"),
                sum.toString());
        assertTrue(calls(methodsNamed(cn, "sum").stream().filter(m -> !m.desc.equals("(Lcorpus/ObjectFutures$Node;)J"))
                .findFirst().orElseThrow()).contains("dev/spindle/future/LongFuture.touchLong"));
        List<String> ints = calls(methodsNamed(cn, "fibIntForms").stream().filter(m -> m.desc.equals("(I)I")).findFirst().orElseThrow());
        assertEquals(2, ints.stream().filter("dev/spindle/future/SerialFutures.touchIntInPlace"::equals).count(), ints.toString());
        assertFalse(ints.contains("dev/spindle/future/IntFuture.touchInt"), ints.toString());
        assertTrue(calls(methodsNamed(cn, "area").stream().filter(m -> m.desc.equals("(DDI)D")).findFirst().orElseThrow())
                .contains("dev/spindle/future/SerialFutures.touchDoubleInPlace"));
        // a handle that may have been handed in keeps the general touch, as does the one handed in
        List<String> mixed = calls(methodsNamed(cn, "madeHereOrHandedIn").stream()
                .filter(m -> m.desc.equals("(ILdev/spindle/future/IntFuture;)I")).findFirst().orElseThrow());
        assertEquals(2, mixed.stream().filter("dev/spindle/future/SerialFutures.touchInt"::equals).count(), mixed.toString());
        assertFalse(mixed.contains("dev/spindle/future/SerialFutures.touchIntInPlace"), mixed.toString());

        // a boxing adaptation keeps the interface call; a loop of futures and a full operand stack are not made in place
        assertTrue(calls(methodsNamed(cn, "shapeBoxingMethodReferenceKeepsTheInterfaceCall").stream()
                .filter(m -> m.desc.equals("()I")).findFirst().orElseThrow()).contains("java/util/function/Function.apply"));
        assertEquals(1, methodsNamed(cn, "shapeFuturesInALoopAreNotSplit").size(), "a loop of futures was split");
        assertEquals(1, methodsNamed(cn, "shapeOperandStackNotEmpty").size(), "a factory over a non-empty stack was made in place");

        // an effect before the base case: the copy resumes after it, with the frame's locals
        assertTrue(methodsNamed(cn, "visitAll").stream().anyMatch(m -> m.desc.equals("(ILdev/spindle/future/SerialFutures;)I")));
    }

    @Test
    void theSerialMethodCountsEveryFutureItMadeInPlaceWhetherItsFrameLeavesNormallyOrByAnException(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("Counted.java"), """
                import dev.spindle.Spindle;
                import dev.spindle.future.IntFuture;
                import dev.spindle.future.LongFuture;
                class Counted {
                    static long fib(int n) {
                        if (n < 2) return n;
                        LongFuture a = Spindle.futureLong(Counted::fib, n - 1);
                        LongFuture b = Spindle.futureLong(() -> fib(n - 2));
                        return a.touchLong() + b.touchLong();
                    }
                    static int boom(int k) {
                        if (k < 0) throw new IllegalStateException("boom " + k);
                        return k;
                    }
                    static int twoThenThrow(int k) {
                        IntFuture a = Spindle.futureInt(() -> boom(k));
                        IntFuture b = Spindle.futureInt(() -> boom(k + 1));
                        if (k > 5) throw new IllegalArgumentException("after two, " + k);
                        return a.touchInt() + b.touchInt();
                    }
                    static int failedAtTouch(int k) {
                        IntFuture a = Spindle.futureInt(() -> boom(-k));
                        IntFuture b = Spindle.futureInt(() -> boom(k));
                        return b.touchInt() + a.touchInt();
                    }
                    static int all(int k) {
                        int s = (int) fib(k);
                        try { s += twoThenThrow(k); } catch (IllegalArgumentException e) { s -= 1; }
                        try { s += failedAtTouch(k); } catch (IllegalStateException e) { s -= 2; }
                        return s;
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        WeaveResult r = weaver(classes).weave(classes.get("Counted"));
        assertEquals(3, r.woven().size(), r.woven() + " " + r.refusals());
        Class<?> c = new Corpus.Loader("counted", Map.of("Counted", r.bytes())).loadClass("Counted");
        Method all = c.getDeclaredMethod("all", int.class);
        all.setAccessible(true);
        int k = 16;
        long calls = fibFutures(k) + 2 + 2;                  // fib's, twoThenThrow's two, failedAtTouch's two
        int expected = (int) fibPlain(k) - 1 - 2;
        for (int workers : new int[] {1, 2}) {
            try (SpindlePool pool = new SpindlePool(workers)) {
                var before = pool.statistics().futures();
                for (int round = 0; round < 3; round++) {     // a pool of one: every frame but the first runs the serial method
                    assertEquals(expected, (int) pool.invoke(new Task<Integer>() {
                        @Override
                        protected Integer compute() throws Exception {
                            return (Integer) all.invoke(null, k);
                        }
                    }));
                }
                var made = pool.statistics().futures().minus(before);
                assertEquals(3 * calls, made.created(), "futures created on a pool of " + workers + ": " + made);
                assertTrue(made.inline() >= 3 * calls - made.promoted() - 3, "run inline on a pool of " + workers
                        + ": " + made);  // per round, a future twoThenThrow never touches may still wait latent
            }
        }
        SpindlePool shared = dev.spindle.Spindle.defaultPool();  // its workers run what they steal from the thread
        var before = shared.statistics().futures();
        java.util.concurrent.FutureTask<Integer> outside = new java.util.concurrent.FutureTask<>(() -> (Integer) all.invoke(null, k));
        Thread t = new Thread(outside, "not a worker");
        t.start();
        assertEquals(expected, outside.get(60, java.util.concurrent.TimeUnit.SECONDS), "all(16) on a thread that is not a worker");
        t.join(60_000);
        var made = shared.statistics().futures().minus(before);
        assertEquals(calls, made.created(), "futures created by a thread that is not a worker and the default pool: " + made);
    }

    /** How many futures the woven fib(n) makes: two per call with n ≥ 2. */
    private static long fibFutures(int n) {
        return n < 2 ? 0 : 2 + fibFutures(n - 1) + fibFutures(n - 2);
    }

    private static long fibPlain(int n) {
        return n < 2 ? n : fibPlain(n - 1) + fibPlain(n - 2);
    }

    @Test
    void everyFactoryOfTheObjectApiIsRecognizedAndNothingElse() throws Exception {
        int found = 0;
        for (Class<?> owner : List.of(dev.spindle.Spindle.class, dev.spindle.future.LazyFuture.class,
                dev.spindle.future.LongFuture.class, dev.spindle.future.IntFuture.class, dev.spindle.future.DoubleFuture.class)) {
            for (Method m : owner.getDeclaredMethods()) {
                if (!java.lang.reflect.Modifier.isStatic(m.getModifiers()) || !java.lang.reflect.Modifier.isPublic(m.getModifiers())) {
                    continue;
                }
                boolean factory = (m.getName().startsWith("future") && !m.getName().equals("futureCall") || m.getName().equals("of"))
                        && dev.spindle.future.LazyFuture.class.isAssignableFrom(m.getReturnType());
                var call = new org.objectweb.asm.tree.MethodInsnNode(org.objectweb.asm.Opcodes.INVOKESTATIC,
                        org.objectweb.asm.Type.getInternalName(owner), m.getName(), org.objectweb.asm.Type.getMethodDescriptor(m), false);
                assertEquals(factory, SerialFutureSplit.isFactory(call), owner.getSimpleName() + "." + m.getName()
                        + org.objectweb.asm.Type.getMethodDescriptor(m));
                found += factory ? 1 : 0;
            }
        }
        assertEquals(20, found, "the object API's supplier and call forms, on Spindle and on the handles");
    }

    @Test
    void aClassWhoseOnlyChangeWouldBeASerialSplitIsLeftAsWrittenWhereItsFramesCannotBeComputed(@TempDir Path dir)
            throws IOException {
        Files.writeString(dir.resolve("Unknown.java"), """
                class Unknown {
                    static class A {} static class B extends A {} static class C extends A {}
                    static long f(int n, boolean b) {
                        A a = b ? new B() : new C();           // frames need the common super class of B and C
                        dev.spindle.future.LongFuture x = dev.spindle.Spindle.futureLong(() -> n + a.hashCode() % 1);
                        return x.touchLong();
                    }
                }
                """);
        Map<String, byte[]> classes = Corpus.compile(dir, "-g");
        // a hierarchy that knows none of Unknown's nested classes
        WeaveResult r = new Weaver(ClassHierarchy.ofLoader(WeaverTest.class.getClassLoader())
                .withFirst(n -> n.equals("Unknown") ? classes.get(n) : null)).weave(classes.get("Unknown"));
        assertFalse(r.changed(), "a split that cannot be written must leave the class as it was");
        assertTrue(r.refusals().isEmpty(), "an optimization is not refused: " + r.refusals());
        WeaveResult known = weaver(classes).weave(classes.get("Unknown"));
        assertTrue(known.changed(), known.refusals().toString());
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void aClassFileTooNewIsRefusedAndLeftAsItWas(@TempDir Path dir) throws IOException {
        byte[] b = plain.get("corpus/Shapes").clone();
        b[6] = 0;
        b[7] = 99;                                   // major version 99
        Weaver.InvalidClassFileException e = assertThrows(Weaver.InvalidClassFileException.class,
                () -> weaver(plain).weave(b));
        assertTrue(e.getMessage().contains("major version 99"), e.getMessage());
        Path f = dir.resolve("corpus/Shapes.class");
        Files.createDirectories(f.getParent());
        Files.write(f, b);
        ClassFileTree.Report r = ClassFileTree.weave(dir, null, ClassHierarchy.ofLoader(getClass().getClassLoader()),
                new ClassFileTree.Options());
        assertFalse(r.ok());
        assertTrue(r.failures().get(0).startsWith("corpus/Shapes.class: unsupported class file"), r.failures().toString());
        assertArrayEquals(b, Files.readAllBytes(f), "the file was changed");
    }

    @Test
    void aCorruptClassFileIsRefusedAndNothingIsWritten(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("corpus/Shapes.class");
        Files.createDirectories(good.getParent());
        Files.write(good, plain.get("corpus/Shapes"));
        byte[] junk = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 65, 1, 2, 3};
        Path bad = dir.resolve("corpus/Junk.class");
        Files.write(bad, junk);
        ClassFileTree.Report r = ClassFileTree.weave(dir, null, ClassHierarchy.ofLoader(getClass().getClassLoader()),
                new ClassFileTree.Options());
        assertFalse(r.ok());
        assertTrue(r.failures().get(0).startsWith("corpus/Junk.class: not a valid class file"), r.failures().toString());
        assertArrayEquals(plain.get("corpus/Shapes"), Files.readAllBytes(good), "a good class was written despite the failure");
        assertArrayEquals(junk, Files.readAllBytes(bad));
    }

    @Test
    void aSignedJarIsRefusedUnlessAskedToUnsign(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("signed.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Map.Entry<String, byte[]> e : plain.entrySet()) {
                out.putNextEntry(new ZipEntry(e.getKey() + ".class"));
                out.write(e.getValue());
            }
            out.putNextEntry(new ZipEntry("META-INF/SIGNER.SF"));
            out.write("Signature-Version: 1.0\n".getBytes(StandardCharsets.UTF_8));
        }
        byte[] before = Files.readAllBytes(jar);
        ClassHierarchy cp = ClassHierarchy.ofLoader(getClass().getClassLoader());
        ClassFileTree.Report refused = ClassFileTree.weave(jar, null, cp, new ClassFileTree.Options());
        assertFalse(refused.ok());
        assertTrue(refused.failures().get(0).contains("the jar is signed (META-INF/SIGNER.SF)"), refused.failures().toString());
        assertArrayEquals(before, Files.readAllBytes(jar));

        Path out = dir.resolve("woven.jar");
        ClassFileTree.Report done = ClassFileTree.weave(jar, out, cp, new ClassFileTree.Options().unsign(true));
        assertTrue(done.ok(), done.failures().toString());
        try (JarFile j = new JarFile(out.toFile())) {
            assertNull(j.getEntry("META-INF/SIGNER.SF"));
            JarEntry shapes = j.getJarEntry("corpus/Shapes.class");
            assertTrue(Weaver.isWoven(j.getInputStream(shapes).readAllBytes()));
        }
    }

    // ------------------------------------------------------------------ the command line tool

    @Test
    void theToolPrintsWhatItWoveAndWhatItRefused(@TempDir Path dir) throws IOException {
        Path good = dir.resolve("good");
        for (Map.Entry<String, byte[]> e : plain.entrySet()) {
            Path f = good.resolve(e.getKey() + ".class");
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = WeaveTool.run(new String[] {good.toString(), "--out", dir.resolve("out").toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("woven    corpus.Shapes.shapeSeventyFutures()I: 70 @Future variables, 70 potential futures"), text);
        assertTrue(Weaver.isWoven(Files.readAllBytes(dir.resolve("out/corpus/Shapes.class"))));
        assertArrayEquals(plain.get("corpus/Shapes"), Files.readAllBytes(good.resolve("corpus/Shapes.class")));

        Path badDir = dir.resolve("bad");
        Map<String, byte[]> bad = Corpus.compile(Corpus.resourceDir("corpus/bad"), "-g");
        for (Map.Entry<String, byte[]> e : bad.entrySet()) {
            Path f = badDir.resolve(e.getKey() + ".class");
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
        err.reset();
        rc = WeaveTool.run(new String[] {badDir.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String errors = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, rc);
        assertTrue(errors.contains("refused  bad.BadConstant.m()I (line 6): the value assigned to @Future variable 'x' is a constant"),
                errors);
        assertTrue(errors.contains("nothing was written"), errors);
        assertEquals(2, WeaveTool.run(new String[] {"--bogus"}, new PrintStream(out), new PrintStream(err)));
    }
}
