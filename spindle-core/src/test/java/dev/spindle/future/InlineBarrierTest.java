package dev.spindle.future;

import dev.spindle.Spindle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code LatentStack.admit} runs a future's body at its creation and must never be inlined into
 * the handle's constructor (its Javadoc says why); it stays out of line by the length of its
 * bytecode, which this test guards, as it guards the opposite for the object future's touch. And the invariant checks that make up part of that length
 * ({@code -Dspindle.debug.checks=true}, on in every core test) catch a corrupted stack.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InlineBarrierTest {

    /** C2's limit for a hot call site on x86-64 and AArch64 when the JVM cannot be asked. */
    private static final int DEFAULT_FREQ_INLINE_SIZE = 325;

    @Test
    void admitIsTooLongForEitherCompilerToInline() throws IOException {
        int limit = Math.max(DEFAULT_FREQ_INLINE_SIZE, vmFlag("FreqInlineSize", DEFAULT_FREQ_INLINE_SIZE));
        limit = Math.max(limit, vmFlag("MaxInlineSize", 35));
        int length = codeLength(LatentStack.class, "admit", "(Ljava/lang/Object;Ljava/lang/Object;II)J");
        assertTrue(length > limit + 32, "LatentStack.admit has " + length + " bytes of bytecode; it must stay well above "
                + limit + " (FreqInlineSize) so that neither C1 nor C2 inlines it into the handle's constructor");
    }

    /**
     * {@code LazyFuture.touch()} and every method of its owner's path that is given the handle
     * must stay within {@code MaxInlineSize}: C2 inlines such a method at any call site, however
     * rarely the site runs, and a handle given to a call it did not inline is allocated (the
     * methods' Javadoc, and PERFORMANCE.md, futures suite, "A touch small enough to inline
     * everywhere").
     */
    @Test
    void theObjectTouchAndItsOwnersPathFitC2sSmallMethodLimit() throws IOException {
        int limit = Math.min(35, vmFlag("MaxInlineSize", 35));
        String[][] methods = {
                {"touch", "()Ljava/lang/Object;"},
                {"touchLatent", "()Ljava/lang/Object;"},
                {"touchOwned", "()Ljava/lang/Object;"},
                {"runPopped", "()Ljava/lang/Object;"},
                {"settleOwned", "()Ljava/lang/Object;"},
                {"cache", "(Ljava/lang/Object;)Ljava/lang/Object;"},
        };
        for (String[] m : methods) {
            assertInlinable(LazyFuture.class, m[0], m[1], limit, "the handle can be removed");
        }
    }

    /**
     * What a woven serial method calls for each future it makes in place, and its prologue: within
     * {@code MaxInlineSize}, so that C2 inlines them at any call site and removes the handle
     * ({@link SerialFutures}).
     */
    @Test
    void theSerialMethodsCallsFitC2sSmallMethodLimit() throws IOException {
        int limit = Math.min(35, vmFlag("MaxInlineSize", 35));
        String[][] methods = {
                {"mayKeepLatent", "()Z"},
                {"countMadeInPlace", "()V"},
                {"handle", "(Ljava/lang/Object;Ljava/lang/Throwable;)Ldev/spindle/future/LazyFuture;"},
                {"handleLong", "(JLjava/lang/Throwable;)Ldev/spindle/future/LongFuture;"},
                {"handleInt", "(ILjava/lang/Throwable;)Ldev/spindle/future/IntFuture;"},
                {"handleDouble", "(DLjava/lang/Throwable;)Ldev/spindle/future/DoubleFuture;"},
                {"ran", "(Ljava/lang/Object;)Ldev/spindle/future/LazyFuture;"},
                {"ranLong", "(J)Ldev/spindle/future/LongFuture;"},
                {"ranInt", "(I)Ldev/spindle/future/IntFuture;"},
                {"ranDouble", "(D)Ldev/spindle/future/DoubleFuture;"},
                {"made", "(Ljava/lang/Object;Ljava/lang/Throwable;)Ldev/spindle/future/LazyFuture;"},
                {"madeLong", "(JLjava/lang/Throwable;)Ldev/spindle/future/LongFuture;"},
                {"madeInt", "(ILjava/lang/Throwable;)Ldev/spindle/future/IntFuture;"},
                {"madeDouble", "(DLjava/lang/Throwable;)Ldev/spindle/future/DoubleFuture;"},
                {"touch", "(Ldev/spindle/future/LazyFuture;)Ljava/lang/Object;"},
                {"touchLong", "(Ldev/spindle/future/LongFuture;)J"},
                {"touchInt", "(Ldev/spindle/future/IntFuture;)I"},
                {"touchDouble", "(Ldev/spindle/future/DoubleFuture;)D"},
                {"touchInPlace", "(Ldev/spindle/future/LazyFuture;)Ljava/lang/Object;"},
                {"touchLongInPlace", "(Ldev/spindle/future/LongFuture;)J"},
                {"touchIntInPlace", "(Ldev/spindle/future/IntFuture;)I"},
                {"touchDoubleInPlace", "(Ldev/spindle/future/DoubleFuture;)D"},
        };
        for (String[] m : methods) {
            assertInlinable(SerialFutures.class, m[0], m[1], limit, "the handle can be removed");
        }
        // what the prologue asks of a worker, and the mirror the latent stack keeps for it
        assertInlinable(dev.spindle.runtime.Worker.class, "mayKeepLatent", "()Z", limit, "the prologue stays two loads");
        assertInlinable(dev.spindle.runtime.Worker.class, "latentRoom", "(Z)V", limit, "the mirror costs a store");
        assertInlinable(LatentStack.class, "externalMayKeepLatent", "(Ljava/lang/Thread;)Z", limit, "the prologue stays small");
    }

    /**
     * What a serial method calls for each future, and the handle's constructor, call nothing that
     * C2 might refuse where it compiles the serial method without call counts (its tier-3 code
     * skipped): only constructors, {@code Thread.currentThread} and VarHandle accesses, which it
     * always inlines, and calls on paths that run for a failure, a result that is itself an
     * {@code Outcome}, or a thread that is not a worker. A small static method there was refused
     * ("low call site frequency") in about half of Knapsack's JVMs, and a call given the handle kept
     * it allocated (PERFORMANCE.md, futures suite, "Thirty-first session").
     */
    @Test
    void theSerialMethodsPerFutureCallsAreOnlyWhatC2InlinesWithoutCallCounts() throws IOException {
        String thread = "java/lang/Thread.currentThread";
        String report = "dev/spindle/future/Outcome.report";
        String failed = "dev/spindle/future/SerialFutures.failedInPlace";
        assertCallsOnly(SerialFutures.class, "countMadeInPlace", "()V", thread,
                "java/lang/invoke/VarHandle.get", "java/lang/invoke/VarHandle.set",
                "dev/spindle/future/LatentStack.countExternalMadeInPlace");
        assertCallsOnly(SerialFutures.class, "handle", "(Ljava/lang/Object;Ljava/lang/Throwable;)Ldev/spindle/future/LazyFuture;",
                thread, "dev/spindle/future/LazyFuture.<init>", failed);
        assertCallsOnly(SerialFutures.class, "handleLong", "(JLjava/lang/Throwable;)Ldev/spindle/future/LongFuture;",
                thread, "dev/spindle/future/LongFuture.<init>", failed);
        assertCallsOnly(SerialFutures.class, "handleInt", "(ILjava/lang/Throwable;)Ldev/spindle/future/IntFuture;",
                thread, "dev/spindle/future/IntFuture.<init>", failed);
        assertCallsOnly(SerialFutures.class, "handleDouble", "(DLjava/lang/Throwable;)Ldev/spindle/future/DoubleFuture;",
                thread, "dev/spindle/future/DoubleFuture.<init>", "java/lang/Double.doubleToRawLongBits", failed);
        assertCallsOnly(SerialFutures.class, "touchInPlace", "(Ldev/spindle/future/LazyFuture;)Ljava/lang/Object;", report);
        assertCallsOnly(SerialFutures.class, "touchLongInPlace", "(Ldev/spindle/future/LongFuture;)J", report);
        assertCallsOnly(SerialFutures.class, "touchIntInPlace", "(Ldev/spindle/future/IntFuture;)I", report);
        assertCallsOnly(SerialFutures.class, "touchDoubleInPlace", "(Ldev/spindle/future/DoubleFuture;)D", report);
        assertCallsOnly(LazyFuture.class, "<init>", "(Ljava/lang/Thread;Ljava/lang/Object;Ldev/spindle/future/Outcome;)V",
                "java/lang/Object.<init>", "dev/spindle/future/Outcome.encode", "java/lang/invoke/VarHandle.setRelease");
    }

    /**
     * The object future's creation runs the body in the caller's compiled code through methods
     * within {@code MaxInlineSize}, so that where the latent path never ran C2 removes the
     * caller's lambda too (the methods' Javadoc; PERFORMANCE.md, futures suite, "The body run
     * in the caller's code").
     */
    @Test
    void theObjectFuturesRunAtCreationFitsC2sSmallMethodLimit() throws IOException {
        int limit = Math.min(35, vmFlag("MaxInlineSize", 35));
        String ret = "Ldev/spindle/future/LazyFuture;";
        assertInlinable(LazyFuture.class, "create", "(Ljava/lang/Object;)" + ret, limit, "the lambda can be removed");
        assertInlinable(LazyFuture.class, "ranAtCreation", "(Ldev/spindle/future/LatentStack;Ljava/lang/Object;)" + ret,
                limit, "the lambda can be removed");
        assertInlinable(LazyFuture.class, "admitted", "(Ldev/spindle/future/LatentStack;Ljava/lang/Object;)" + ret,
                limit, "the lambda can be removed");
        assertInlinable(Outcome.class, "runAtCreation",
                "(Ldev/spindle/future/LatentStack;Ldev/spindle/future/ExposedFutures;JLjava/lang/Object;)Ljava/lang/Object;",
                limit, "the lambda can be removed");
        assertInlinable(Outcome.class, "invoke", "(Ljava/lang/Object;)Ljava/lang/Object;", limit, "the lambda can be removed");
    }

    /** The same for the primitive futures' suppliers. */
    @Test
    void thePrimitiveFuturesRunAtCreationFitsC2sSmallMethodLimit() throws IOException {
        int limit = Math.min(35, vmFlag("MaxInlineSize", 35));
        String why = "the lambda can be removed";
        String run = "(Ldev/spindle/future/LatentStack;Ldev/spindle/future/ExposedFutures;JLjava/lang/Object;)Ljava/lang/Object;";
        for (Class<?> c : new Class<?>[] {LongFuture.class, IntFuture.class, DoubleFuture.class}) {
            String ret = "L" + c.getName().replace('.', '/') + ";";
            assertInlinable(c, "create", "(Ljava/lang/Object;)" + ret, limit, why);
            assertInlinable(c, "ranAtCreation", "(Ldev/spindle/future/LatentStack;Ljava/lang/Object;)" + ret, limit, why);
            assertInlinable(c, "admitted", "(Ldev/spindle/future/LatentStack;Ljava/lang/Object;)" + ret, limit, why);
        }
        assertInlinable(Outcome.class, "runLongAtCreation", run, limit, why);
        assertInlinable(Outcome.class, "runIntAtCreation", run, limit, why);
        assertInlinable(Outcome.class, "runDoubleAtCreation", run, limit, why);
        assertInlinable(Outcome.class, "invokeLong", "(Ljava/lang/Object;)J", limit, why);
        assertInlinable(Outcome.class, "invokeInt", "(Ljava/lang/Object;)I", limit, why);
        assertInlinable(Outcome.class, "invokeDouble", "(Ljava/lang/Object;)D", limit, why);
    }

    /**
     * The primitive call forms decide, number and fill the handle in its constructors, which C2
     * inlines whatever the call site's frequency when escape analysis is on, within
     * {@code FreqInlineSize}; the factories around them stay within {@code MaxInlineSize}, which C2
     * inlines at any call site ({@code LongFuture.of(IntToLongFunction, int)}'s Javadoc).
     */
    @Test
    void thePrimitiveCallFormsInlineAtAnyCallSite() throws IOException {
        int small = Math.min(35, vmFlag("MaxInlineSize", 35));
        int hot = Math.min(DEFAULT_FREQ_INLINE_SIZE, vmFlag("FreqInlineSize", DEFAULT_FREQ_INLINE_SIZE));
        String why = "the handle can be removed wherever a future is created";
        String chain = "(Ljava/lang/Object;Ljava/lang/Object;IILjava/lang/Thread;";
        String[] constructors = {
            chain + ")V",
            chain + "Ldev/spindle/future/LatentStack;)V",
            chain + "Ldev/spindle/future/LatentStack;Ldev/spindle/future/ExposedFutures;J)V",
            chain + "Ldev/spindle/future/LatentStack;Ldev/spindle/future/ExposedFutures;JLjava/lang/Object;)V",
        };
        assertInlinable(LongFuture.class, "of",
                "(Ljava/util/function/ToLongFunction;Ljava/lang/Object;)Ldev/spindle/future/LongFuture;", small, why);
        assertInlinable(LongFuture.class, "of",
                "(Ljava/util/function/IntToLongFunction;I)Ldev/spindle/future/LongFuture;", small, why);
        assertInlinable(IntFuture.class, "of",
                "(Ljava/util/function/ToIntFunction;Ljava/lang/Object;)Ldev/spindle/future/IntFuture;", small, why);
        assertInlinable(IntFuture.class, "of",
                "(Ljava/util/function/IntUnaryOperator;I)Ldev/spindle/future/IntFuture;", small, why);
        assertInlinable(DoubleFuture.class, "of",
                "(Ljava/util/function/ToDoubleFunction;Ljava/lang/Object;)Ldev/spindle/future/DoubleFuture;", small, why);
        for (Class<?> c : new Class<?>[] {LongFuture.class, IntFuture.class, DoubleFuture.class}) {
            for (String constructor : constructors) {
                assertInlinable(c, "<init>", constructor, hot, why);
            }
        }
    }

    private static void assertInlinable(Class<?> c, String method, String descriptor, int limit, String why) throws IOException {
        int length = codeLength(c, method, descriptor);
        assertTrue(length <= limit, c.getSimpleName() + "." + method + " has " + length + " bytes of bytecode; it must stay within "
                + limit + " so that C2 inlines it and " + why);
    }

    @Test
    void theBuildRunsTheCoreTestsWithTheInvariantChecks() {
        assertTrue(LatentStack.CHECKS, "spindle-core's surefire configuration sets -Dspindle.debug.checks=true");
    }

    @Test
    void theChecksNameACorruptedStack() {
        LatentStack s = LatentStack.current();                 // this thread's (not a worker's) stack
        assertEquals(42L, Spindle.futureLong(() -> 42L).touchLong(), "a sound stack admits futures");
        int top = s.top;
        Object[] slots = s.slots;
        slots[top] = "stray";                                  // an entry above the top
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Spindle.futureLong(() -> 1L));
            assertTrue(e.getMessage().contains("above the top at position " + top), e.getMessage());
        } finally {
            slots[top] = null;
        }
        assertEquals(7L, Spindle.futureLong(() -> 7L).touchLong(), "the repaired stack admits futures again");
    }

    private static int vmFlag(String name, int fallback) {
        try {
            return Integer.parseInt(ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .getVMOption(name).getValue());
        } catch (RuntimeException | LinkageError e) {
            return fallback;                                   // not HotSpot
        }
    }

    /** The length of a method's bytecode, read from the class file (JVMS §4). */
    static int codeLength(Class<?> c, String method, String descriptor) throws IOException {
        return code(c, method, descriptor).bytes().length;
    }

    /** Fails unless every method {@code method} calls (as owner.name) is one of {@code allowed}. */
    private static void assertCallsOnly(Class<?> c, String method, String descriptor, String... allowed) throws IOException {
        java.util.Set<String> calls = code(c, method, descriptor).calls();
        calls.removeAll(java.util.Set.of(allowed));
        assertTrue(calls.isEmpty(), c.getSimpleName() + "." + method + descriptor + " calls " + calls
                + ": a small method there is one C2 may leave out of line where it has no call counts");
    }

    /** A method's bytecode and its class's constant pool (JVMS §4). */
    private record Code(byte[] bytes, String[] utf8, int[][] refs) {
        /** The methods called, as owner.name. */
        java.util.Set<String> calls() {
            java.util.Set<String> calls = new java.util.TreeSet<>();
            for (int pc = 0; pc < bytes.length; pc += length(pc)) {
                int op = bytes[pc] & 0xFF;
                if (op >= 0xB6 && op <= 0xB9) {                    // invokevirtual, special, static, interface
                    int[] ref = refs[((bytes[pc + 1] & 0xFF) << 8) | (bytes[pc + 2] & 0xFF)];
                    String owner = utf8[refs[ref[0]][0]];
                    calls.add(owner + "." + utf8[refs[ref[1]][0]]);
                }
            }
            return calls;
        }

        /** The length of the instruction at {@code pc}. */
        private int length(int pc) {
            int op = bytes[pc] & 0xFF;
            return switch (op) {
                case 0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3A, 0xA9, 0xBC -> 2;
                case 0x11, 0x13, 0x14, 0x84, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xBB, 0xBD, 0xC0, 0xC1,
                        0xC6, 0xC7 -> 3;
                case 0xC5 -> 4;
                case 0xB9, 0xBA, 0xC8, 0xC9 -> 5;
                case 0xC4 -> (bytes[pc + 1] & 0xFF) == 0x84 ? 6 : 4;   // wide
                case 0xAA, 0xAB -> {                                   // tableswitch, lookupswitch
                    int p = (pc + 4) & ~3;
                    yield op == 0xAA ? p - pc + 12 + 4 * (readInt(p + 8) - readInt(p + 4) + 1) : p - pc + 8 + 8 * readInt(p + 4);
                }
                default -> op >= 0x99 && op <= 0xA8 ? 3 : 1;           // branches, goto, jsr
            };
        }

        private int readInt(int at) {
            return ((bytes[at] & 0xFF) << 24) | ((bytes[at + 1] & 0xFF) << 16) | ((bytes[at + 2] & 0xFF) << 8) | (bytes[at + 3] & 0xFF);
        }
    }

    /** Reads {@code method}'s code from {@code c}'s class file, with the constant pool's names and references. */
    private static Code code(Class<?> c, String method, String descriptor) throws IOException {
        byte[] bytes;
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            assertNotNull(in, "class file of " + c.getName());
            bytes = in.readAllBytes();
        }
        DataInputStream d = new DataInputStream(new ByteArrayInputStream(bytes));
        assertEquals(0xCAFEBABE, d.readInt(), "magic");
        d.readUnsignedShort();
        d.readUnsignedShort();
        int count = d.readUnsignedShort();
        String[] utf8 = new String[count];
        int[][] refs = new int[count][];                           // Class: {name}; refs and NameAndType: {first, second}
        for (int i = 1; i < count; i++) {
            int tag = d.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = d.readUTF();
                case 9, 10, 11, 12 -> refs[i] = new int[] {d.readUnsignedShort(), d.readUnsignedShort()};
                case 3, 4, 17, 18 -> d.skipBytes(4);
                case 5, 6 -> {
                    d.skipBytes(8);
                    i++;                                           // longs and doubles take two entries
                }
                case 7 -> refs[i] = new int[] {d.readUnsignedShort()};
                case 8, 16, 19, 20 -> d.skipBytes(2);
                case 15 -> d.skipBytes(3);
                default -> fail("constant pool tag " + tag + " at entry " + i);
            }
        }
        d.skipBytes(6);                                            // access, this, super
        d.skipBytes(2 * d.readUnsignedShort());                    // interfaces
        for (int f = d.readUnsignedShort(); f > 0; f--) {
            d.skipBytes(6);
            skipAttributes(d);
        }
        for (int m = d.readUnsignedShort(); m > 0; m--) {
            d.readUnsignedShort();
            String name = utf8[d.readUnsignedShort()];
            String desc = utf8[d.readUnsignedShort()];
            for (int a = d.readUnsignedShort(); a > 0; a--) {
                String attribute = utf8[d.readUnsignedShort()];
                int length = d.readInt();
                if (name.equals(method) && desc.equals(descriptor) && attribute.equals("Code")) {
                    d.skipBytes(4);                                // max_stack, max_locals
                    byte[] code = new byte[d.readInt()];
                    d.readFully(code);
                    return new Code(code, utf8, refs);
                }
                d.skipBytes(length);
            }
        }
        return fail("no method " + method + descriptor + " in " + c.getName());
    }

    private static void skipAttributes(DataInputStream d) throws IOException {
        for (int a = d.readUnsignedShort(); a > 0; a--) {
            d.skipBytes(2);
            d.skipBytes(d.readInt());
        }
    }
}
