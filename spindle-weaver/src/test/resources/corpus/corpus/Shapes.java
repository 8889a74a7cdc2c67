package corpus;

import dev.spindle.Future;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/** Conformance shapes: every public static method named shape* is run woven and unwoven and compared. */
public class Shapes {
    // ------------------------------------------------------------------ helpers (pure)
    static int sq(int x) { return x * x; }
    static long big(long x) { return x * 1_000_000_007L; }
    static double half(double x) { return x / 2; }
    static float third(float x) { return x / 3; }
    static boolean odd(int x) { return (x & 1) != 0; }
    static byte low(int x) { return (byte) x; }
    static char letter(int x) { return (char) ('a' + x % 26); }
    static short shorty(int x) { return (short) (x * 3); }
    static String text(int x) { return "t" + x; }
    static List<Integer> range(int n) { List<Integer> l = new ArrayList<>(); for (int i = 0; i < n; i++) l.add(i); return l; }
    static int[] squares(int n) { int[] a = new int[n]; for (int i = 0; i < n; i++) a[i] = i * i; return a; }
    static int fail(int x) { if (x >= 0) throw new IllegalArgumentException("bad " + x); return x; }
    static int sum(int... xs) { int s = 0; for (int x : xs) s += x; return s; }
    static long mix(long a, double b, int c, String d, float e, Object f) { return a + (long) b + c + d.length() + (long) e + f.hashCode() % 7; }
    private static int secret(int x) { return x + 42; }
    static final AtomicInteger CALLS = new AtomicInteger();
    static int counted(int x) { CALLS.incrementAndGet(); return x; }
    static int fib(int n) { if (n < 2) return n; @Future int a = fib(n - 1); int b = fib(n - 2); return a + b; }

    interface Op { int apply(int x); static int twice(int x) { return 2 * x; } default int thrice(int x) { @Future int y = apply(x); return 3 * y; } }
    static final class Adder implements Op { final int k; Adder(int k) { this.k = k; } public int apply(int x) { return x + k; } int plus(int x) { return x + k; } }
    static Adder pick(int i) { return new Adder(i * 10); }

    // ------------------------------------------------------------------ primitive types and references
    public static int shapeInt() { @Future int x = sq(7); int y = sq(3); return x + y; }
    public static long shapeLong() { @Future long x = big(12345); long y = big(2); return x - y; }
    public static double shapeDouble() { @Future double x = half(9.5); double y = half(1); return x * y; }
    public static float shapeFloat() { @Future float x = third(10f); return x + 1f; }
    public static boolean shapeBoolean() { @Future boolean x = odd(7); boolean y = odd(2); return x && !y; }
    public static byte shapeByte() { @Future byte x = low(300); return (byte) (x + 1); }
    public static char shapeChar() { @Future char x = letter(30); return x; }
    public static short shapeShort() { @Future short x = shorty(1000); return x; }
    public static String shapeString() { @Future String s = text(5); return s + "!"; }
    public static int shapeGenerics() { @Future List<Integer> l = range(10); int s = 0; for (int v : l) s += v; return s; }
    public static int shapeArray() { @Future int[] a = squares(6); return a[5] + a.length; }
    public static long shapeMixedArguments() { @Future long x = mix(3L, 2.5, 4, "abcd", 1.5f, "k"); return x; }
    public static Integer shapeBoxing() { @Future Integer x = sq(9); return x; }
    public static int shapeUnboxing() { Map<String, Integer> m = new HashMap<>(); m.put("a", 5); @Future int x = m.get("a"); return x * 2; }
    public static String shapeCheckcast() { List<String> l = List.of("p", "q"); @Future String s = l.get(1); return s; }
    public static long shapeWidening() { @Future long x = sq(100000); return x * 3; }

    // ------------------------------------------------------------------ several futures
    public static int shapeThreeFutures() { @Future int a = sq(2); @Future int b = sq(3); @Future int c = sq(4); return a * 100 + b * 10 + c; }
    public static int shapeReadInReverse() { @Future int a = sq(2); @Future int b = sq(3); int rb = b; int ra = a; return ra * 10 + rb; }
    public static int shapeSeventyFutures() {
        @Future int v0 = sq(0);
        @Future int v1 = sq(1);
        @Future int v2 = sq(2);
        @Future int v3 = sq(3);
        @Future int v4 = sq(4);
        @Future int v5 = sq(5);
        @Future int v6 = sq(6);
        @Future int v7 = sq(7);
        @Future int v8 = sq(8);
        @Future int v9 = sq(9);
        @Future int v10 = sq(10);
        @Future int v11 = sq(11);
        @Future int v12 = sq(12);
        @Future int v13 = sq(13);
        @Future int v14 = sq(14);
        @Future int v15 = sq(15);
        @Future int v16 = sq(16);
        @Future int v17 = sq(17);
        @Future int v18 = sq(18);
        @Future int v19 = sq(19);
        @Future int v20 = sq(20);
        @Future int v21 = sq(21);
        @Future int v22 = sq(22);
        @Future int v23 = sq(23);
        @Future int v24 = sq(24);
        @Future int v25 = sq(25);
        @Future int v26 = sq(26);
        @Future int v27 = sq(27);
        @Future int v28 = sq(28);
        @Future int v29 = sq(29);
        @Future int v30 = sq(30);
        @Future int v31 = sq(31);
        @Future int v32 = sq(32);
        @Future int v33 = sq(33);
        @Future int v34 = sq(34);
        @Future int v35 = sq(35);
        @Future int v36 = sq(36);
        @Future int v37 = sq(37);
        @Future int v38 = sq(38);
        @Future int v39 = sq(39);
        @Future int v40 = sq(40);
        @Future int v41 = sq(41);
        @Future int v42 = sq(42);
        @Future int v43 = sq(43);
        @Future int v44 = sq(44);
        @Future int v45 = sq(45);
        @Future int v46 = sq(46);
        @Future int v47 = sq(47);
        @Future int v48 = sq(48);
        @Future int v49 = sq(49);
        @Future int v50 = sq(50);
        @Future int v51 = sq(51);
        @Future int v52 = sq(52);
        @Future int v53 = sq(53);
        @Future int v54 = sq(54);
        @Future int v55 = sq(55);
        @Future int v56 = sq(56);
        @Future int v57 = sq(57);
        @Future int v58 = sq(58);
        @Future int v59 = sq(59);
        @Future int v60 = sq(60);
        @Future int v61 = sq(61);
        @Future int v62 = sq(62);
        @Future int v63 = sq(63);
        @Future int v64 = sq(64);
        @Future int v65 = sq(65);
        @Future int v66 = sq(66);
        @Future int v67 = sq(67);
        @Future int v68 = sq(68);
        @Future int v69 = sq(69);
        return v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11 + v12 + v13 + v14 + v15 + v16 + v17 + v18 + v19 + v20 + v21 + v22 + v23 + v24 + v25 + v26 + v27 + v28 + v29 + v30 + v31 + v32 + v33 + v34 + v35 + v36 + v37 + v38 + v39 + v40 + v41 + v42 + v43 + v44 + v45 + v46 + v47 + v48 + v49 + v50 + v51 + v52 + v53 + v54 + v55 + v56 + v57 + v58 + v59 + v60 + v61 + v62 + v63 + v64 + v65 + v66 + v67 + v68 + v69;
    }
    public static int shapeFutureAsArgument() { @Future int a = sq(3); @Future int b = sq(a); return b; }

    // ------------------------------------------------------------------ loops
    public static int shapeLoop() { int s = 0; for (int i = 0; i < 50; i++) { @Future int x = sq(i); s += x; } return s; }
    public static int shapeNestedLoops() { int s = 0; for (int i = 0; i < 8; i++) { for (int j = 0; j < 8; j++) { @Future int x = sq(i * j); s += x; } } return s; }
    public static int shapeLoopNeverRead() { CALLS.set(0); for (int i = 0; i < 40; i++) { @Future int x = counted(i); } return CALLS.get(); }
    public static int shapeLoopReassigned() { @Future int x = sq(1); int s = 0; for (int i = 0; i < 20; i++) { x = sq(i); s += x; } return s + x; }
    public static int shapeLoopBreak() { int s = 0; for (int i = 0; i < 100; i++) { @Future int x = counted(i); if (i == 7) break; s += x; } return s; }
    public static int shapeLoopContinue() { int s = 0; for (int i = 0; i < 30; i++) { @Future int x = sq(i); if (i % 3 == 0) continue; s += x; } return s; }
    public static int shapeWhileLoop() { int i = 0, s = 0; while (i < 25) { @Future int x = sq(i++); s ^= x; } return s; }

    // ------------------------------------------------------------------ exceptions
    public static int shapeTryAroundDeclaration() { int r; try { @Future int x = sq(6); r = x; } catch (RuntimeException e) { r = -1; } return r; }
    // Where the future call's exception would escape at the declaration in the serial code, the
    // woven method raises it at the first read (the directive's semantics); expect_* says what then.
    static final String expect_shapeCaughtAtRead = "value ran:bad 3";
    static final String expect_shapeTryAroundRead = "value -6";
    public static String shapeCaughtAtRead() { @Future int x = fail(3); String before = "ran"; try { return before + x; } catch (IllegalArgumentException e) { return before + ":" + e.getMessage(); } }
    public static int shapeThrownAtRead() { @Future int x = fail(4); return x + 1; }
    public static int shapeNeverReadFailure() { @Future int x = fail(5); return 17; }
    public static int shapeFinally() { int[] box = {0}; try { @Future int x = sq(5); box[0] = x; return x; } finally { box[0]++; } }
    public static int shapeTryAroundRead() { @Future int x = fail(6); int r; try { r = x; } catch (IllegalArgumentException e) { r = -6; } return r; }
    public static int shapeContinuationThrows() { @Future int x = sq(8); if (x >= 0) throw new IllegalStateException("continuation"); return x; }
    public static int shapeFailureInLoop() { int s = 0; for (int i = 0; i < 5; i++) { @Future int x = fail(i - 3); s += x; } return s; }

    // ------------------------------------------------------------------ monitors
    public static synchronized int shapeSynchronizedMethod() { @Future int x = sq(11); return x + 1; }
    private static final Object LOCK = new Object();
    public static int shapeSynchronizedBlock() { int r; synchronized (LOCK) { @Future int x = sq(12); r = x; } @Future int y = sq(2); return r + y; }

    // ------------------------------------------------------------------ kinds of call
    public static int shapeVirtual() { Adder a = new Adder(5); @Future int x = a.plus(3); return x; }
    public static int shapeInterface() { Op op = new Adder(7); @Future int x = op.apply(3); return x; }
    public static int shapeStaticInterface() { @Future int x = Op.twice(21); return x; }
    public static int shapeDefaultMethod() { return new Adder(1).thrice(4); }
    public static int shapePrivate() { @Future int x = secret(1); return x; }
    public static int shapeVarargs() { @Future int x = sum(1, 2, 3, 4); return x; }
    public static int shapeReceiverExpression() { int i = 3; @Future int x = pick(i).plus(i * 2); return x; }
    public static int shapeRecursion() { return fib(20); }
    public static int shapeLambda() { IntUnaryOperator f = v -> { @Future int x = sq(v); return x + 1; }; return f.applyAsInt(9); }
    public static int shapeInnerClass() { return new Object() { int go(int v) { @Future int x = sq(v); return x - 1; } }.go(13); }
    public static int shapeConstructor() { return new Built(6).value; }
    public static int shapeSuperCall() { return new Derived().value(); }
    public static int shapeInstanceMethodOnThis() { return new Derived().twiceValue(); }

    // ------------------------------------------------------------------ reads
    public static String shapeSwitchRead() { @Future int x = sq(3); switch (x) { case 9: return "nine"; case 4: return "four"; default: return "other"; } }
    public static int shapeConditionalRead() { @Future int x = sq(4); boolean c = odd(3); return c ? x : -x; }
    public static int shapeReadInOneBranch() { @Future int x = sq(5); if (odd(2)) { return x; } return 100; }
    public static int shapeNeverRead() { CALLS.set(0); @Future int x = counted(3); return CALLS.get() * 0 + 4; }
    public static int shapePlainReassignment() { @Future int x = sq(9); x = 5; return x; }
    public static int shapeIncrement() { @Future int x = sq(9); x++; x += 2; return x; }
    public static int shapeReadTwice() { @Future int x = sq(6); int a = x; int b = x; return a + b; }
    public static int shapeDeclaredLater() { @Future int x; int k = 3; x = sq(k); return x; }

    // ------------------------------------------------------------------ base cases with effects: the split resumes past them

    static final AtomicInteger PREFIX = new AtomicInteger();
    /** Counts every frame, builds locals of five types, and its leaf writes: the deferring copy must resume past this. */
    static long halves(int[] a, int lo, int hi) {
        PREFIX.incrementAndGet();
        int n = hi - lo; long scale = 3L; double w = n / 2.0; String tag = "t" + n; int[] same = a;
        if (n == 1) { a[lo] = a[lo] * 2 + 1; return a[lo]; }
        int mid = lo + (int) w;
        @Future long left = halves(same, lo, mid);
        long right = halves(a, mid, hi);
        return left + right + scale * tag.length();
    }
    public static long shapeImpureBaseCase() { PREFIX.set(0); int[] a = squares(37); long r = halves(a, 0, a.length); return r * 1000 + PREFIX.get() * 10 + Math.floorMod(java.util.Arrays.hashCode(a), 10); }
    /** Changes its parameters in a loop with an early return before the base case. */
    static int countdown(int n, int acc) {
        PREFIX.incrementAndGet();
        while (n > 0 && n % 5 != 0) { acc += n; n--; if (acc > 100000) return acc; }
        if (n <= 0) return acc;
        @Future int a = countdown(n - 1, acc % 7);
        int b = countdown(n - 3, 1);
        return a + b;
    }
    public static int shapeParametersChangedBeforeBaseCase() { PREFIX.set(0); int r = countdown(23, 0); return r * 1000 + PREFIX.get(); }
    final int k;
    Shapes(int k) { this.k = k; }
    Shapes() { this(0); }
    /** An instance method whose local has two types where the base case ends: no resume point, it asks at its entry. */
    int mixed(int n) {
        PREFIX.incrementAndGet();
        Object o = odd(n) ? (Object) ("s" + n) : Integer.valueOf(n);
        if (n < 2) return n + k;
        @Future int a = mixed(n - 1);
        int b = mixed(n - 2);
        return a + b + o.toString().length();
    }
    public static int shapeMergedTypeBeforeBaseCase() { PREFIX.set(0); int r = new Shapes(2).mixed(12); return r * 1000 + PREFIX.get(); }

    // ------------------------------------------------------------------ more shapes (thirteenth session)

    public static int shapeCapturedByLambda() { @Future int x = sq(7); java.util.function.IntSupplier f = () -> x + 1; return f.getAsInt(); }
    public static String shapeStringConcatenation() { @Future int x = sq(4); @Future String t = text(2); return "x=" + x + ", t=" + t; }
    public static int shapeSwitchExpression() { int k = 2; int r = switch (k) { case 1 -> 0; case 2 -> { @Future int x = sq(5); yield x + 1; } default -> -1; }; return r; }
    public static int shapeTryWithResources() { int[] closed = {0}; int r; try (AutoCloseable c = () -> closed[0]++) { @Future int x = sq(3); r = x; } catch (Exception e) { r = -1; } return r * 10 + closed[0]; }
    public static int shapeLabeledContinue() { int s = 0; outer: for (int i = 0; i < 6; i++) { for (int j = 0; j < 6; j++) { @Future int x = sq(i + j); if (j > i) continue outer; s += x; } } return s; }
    public static int shapeDoWhile() { int i = 0, s = 0; do { @Future int x = sq(i); s += x; i++; } while (i < 9); return s; }
    static final String expect_shapeFailureCaughtInLoop = "value 2994";       // raised at the read, inside the handler
    public static int shapeFailureCaughtInLoop() { int s = 0; for (int i = 0; i < 6; i++) { @Future int x = fail(i - 3); try { s += x; } catch (IllegalArgumentException e) { s += 1000; } } return s; }
    public static int shapeNestedSynchronized() { int r; synchronized (LOCK) { @Future int x = sq(3); synchronized (CALLS) { r = x; } } return r; }
    public static long shapeWideArgumentsInterleaved() { long a = 5L; double b = 1.5; @Future long x = mix(a, b, 3, "zz", 2f, 4); @Future double y = half(b + a); return x + (long) (y * 4); }
    public static int shapePatternSwitch() { Object o = odd(3) ? "three" : Integer.valueOf(3); @Future int x = sq(6); return switch (o) { case String s when s.length() > x - 36 -> s.length() + x; case String s -> -1; default -> -2; }; }
    static <T extends Comparable<T>> T maxOf(T a, T b) { return a.compareTo(b) >= 0 ? a : b; }
    public static String shapeGenericMethod() { @Future String s = maxOf("pear", "apple"); @Future Integer i = maxOf(3, 9); return s + i; }
    public static int shapeTernaryArgument() { boolean c = odd(5); @Future int x = sq(c ? 4 : 5); return x; }
    public static int shapeFutureInsideFinally() { int r = 0; try { r = sq(2); } finally { @Future int x = sq(3); r += x; } return r; }
    static int finallyOnEveryExit(int k) { int r = 0; try { if (k > 2) return sq(k); if (k < 0) throw new IllegalStateException("k " + k); r = sq(2); } finally { @Future int x = counted(k + 1); r += x; PREFIX.addAndGet(x); } return r; }
    public static String shapeFutureInsideFinallyEveryExit() { PREFIX.set(0); CALLS.set(0); String thrown; try { finallyOnEveryExit(-4); thrown = "none"; } catch (IllegalStateException e) { thrown = e.getMessage(); } return finallyOnEveryExit(1) + "," + finallyOnEveryExit(5) + "," + thrown + "," + PREFIX.get() + "," + CALLS.get(); }
    static int nestedFinally(int k) { int r = 0; try { try { if (k > 3) return sq(k); r = sq(1); } finally { @Future int x = counted(k); try { if (k == 2) return x; r += x; } finally { @Future int y = counted(k + 10); r += y; PREFIX.addAndGet(y); } } } finally { CALLS.incrementAndGet(); } return r; }
    public static String shapeNestedFinally() { PREFIX.set(0); CALLS.set(0); return nestedFinally(1) + "," + nestedFinally(2) + "," + nestedFinally(5) + "," + PREFIX.get() + "," + CALLS.get(); }
    public static int shapeFinallyWithBreakInLoop() { int s = 0; for (int i = 0; i < 10; i++) { try { if (i == 6) break; if (i % 2 == 0) continue; s += i; } finally { @Future int x = sq(i); s += x; } } return s; }
    static int bothBranches(boolean c) { @Future int x; if (c) { x = sq(2); } else { x = sq(3); } return x + 1; }
    public static int shapeAssignedInBothBranches() { return bothBranches(true) * 100 + bothBranches(false); }
    static final Object GATE = new Object();
    static final java.util.concurrent.atomic.AtomicBoolean AT_GATE = new java.util.concurrent.atomic.AtomicBoolean();
    static int throughGate(int v) { AT_GATE.set(true); synchronized (GATE) { return v * 3; } }
    /** The call takes the monitor the method holds at the read: the call must be finished before the method takes it. */
    public static int shapeReadUnderTheCallsMonitor() {
        AT_GATE.set(false);
        @Future int x = throughGate(4);
        synchronized (GATE) {
            long end = System.nanoTime() + 20_000_000L;
            while (!AT_GATE.get() && System.nanoTime() < end) { Thread.onSpinWait(); }   // a thief, if any, reaches the gate
            return x + 1;
        }
    }
    static int failThroughGate(int v) { AT_GATE.set(true); synchronized (GATE) { return fail(v); } }
    static final String expect_shapeFailureFinishedBeforeMonitor = "value ran:bad 7";   // raised at the read, inside the handler
    public static String shapeFailureFinishedBeforeMonitor() {
        AT_GATE.set(false);
        @Future int x = failThroughGate(7);
        String before = "ran";
        synchronized (GATE) {
            long end = System.nanoTime() + 20_000_000L;
            while (!AT_GATE.get() && System.nanoTime() < end) { Thread.onSpinWait(); }
            try { return before + x; } catch (IllegalArgumentException e) { return before + ":" + e.getMessage(); }
        }
    }
    public static long shapeSlotReusedAfterScope() { long s = 0; { @Future long x = big(1); s += x; } { double d = 2.5; int k = 3; s += (long) d + k; } { @Future double y = half(9); String t = "ab"; s += (long) y + t.length(); } return s; }
    static int pickBranch(int k) { @Future int x; switch (k) { case 0: x = sq(2); break; case 1: x = sq(3); break; default: x = sq(4); } return x * 10 + k; }
    public static int shapeAssignedInSwitchCases() { return pickBranch(0) + pickBranch(1) * 1000 + pickBranch(7) * 1000000; }
    public static int shapeReadInLoopCondition() { @Future int n = sq(4); int i = 0; while (i < n) { i += 3; } return i; }
    public static int shapeNestedFutureRecursionInBothBranches() { return twoWay(12); }
    static int twoWay(int n) { if (n < 2) return n; @Future int a; if ((n & 1) == 0) { a = twoWay(n - 1); } else { a = twoWay(n - 2); } @Future int b = twoWay(n - 2); return a + b + 1; }
    // The first read raises the call's failure; a read after the handler finds the variable never
    // assigned and loads the type's default (the serial method threw at the declaration).
    static final String expect_shapeReadAgainAfterCaughtFailure = "value -1000";
    public static int shapeReadAgainAfterCaughtFailure() { @Future int x = fail(2); int r; try { r = x; } catch (IllegalArgumentException e) { r = -1000; } return r + x; }
    public static int shapeMonitorInLoopAfterDeclaration() { @Future int x = throughGate(5); int s = 0; for (int i = 0; i < 4; i++) { synchronized (GATE) { s += x + i; } } return s; }
    public static int shapeNeverReadFailureFinishedBeforeMonitor() { @Future int x = fail(3); synchronized (GATE) { CALLS.incrementAndGet(); } return 5; }
    public static int shapeReassignedUnderMonitor() { @Future int x = throughGate(2); synchronized (GATE) { x = sq(x); } @Future int y = throughGate(x); return y; }
    public static int shapeMonitorBeforeDeclaration() { int k; synchronized (GATE) { k = sq(3); } @Future int x = throughGate(k); return x; }
    public static int shapeMonitorInFinally() { @Future int x = throughGate(6); int r = 0; try { r = 1; } finally { synchronized (GATE) { r += x; } } return r; }
    public static int shapeSynchronizedMethodCalledAfterDeclaration() { @Future int x = throughGate(7); return lockedRead(x); }
    static synchronized int lockedRead(int v) { return v + 1; }
    static final java.util.concurrent.locks.ReentrantLock LATCH = new java.util.concurrent.locks.ReentrantLock();
    static int throughLatch(int v) { AT_GATE.set(true); LATCH.lock(); try { return v * 5; } finally { LATCH.unlock(); } }
    /** As shapeReadUnderTheCallsMonitor, with a ReentrantLock taken through the Lock interface. */
    public static int shapeReadUnderTheCallsLock() {
        AT_GATE.set(false);
        @Future int x = throughLatch(3);
        java.util.concurrent.locks.Lock l = LATCH;
        l.lock();
        try {
            long end = System.nanoTime() + 20_000_000L;
            while (!AT_GATE.get() && System.nanoTime() < end) { Thread.onSpinWait(); }
            return x + 1;
        } finally {
            l.unlock();
        }
    }
    public static int shapeReadAfterCatchInLoopBody() { int s = 0; for (int i = 0; i < 4; i++) { @Future int x = sq(i); try { if (i == 2) throw new IllegalStateException(); } catch (IllegalStateException e) { s -= 1; } s += x; } return s; }
    enum Kind { A, B; int weight() { @Future int x = sq(ordinal() + 2); return x; } }
    public static int shapeEnumMethod() { return Kind.A.weight() + Kind.B.weight(); }
    record Pair(int a, int b) { Pair { @Future int x = sq(a); a = x; } }
    public static int shapeRecordCompactConstructor() { return new Pair(4, 1).a(); }
    static final int STATIC_INIT;
    static { @Future int x = sq(12); STATIC_INIT = x; }           // pinned: a thief would wait for this class
    public static int shapeStaticInitializer() { return STATIC_INIT; }
    public static int shapeInstanceInitializer() { return new Object() { final int v; { @Future int x = sq(8); v = x; } }.v; }
    public static int shapeArrayElementReceiver() { Adder[] as = {new Adder(1), new Adder(2)}; int i = 1; @Future int x = as[i].plus(10); return x; }
    public static int shapeReassignedFromOtherFuture() { @Future int x = sq(2); @Future int y = sq(x); x = sq(y); return x + y; }
    public static long shapeLongInLoopTwoSlots() { long s = 0; for (int i = 0; i < 10; i++) { @Future long x = big(i); double d = i * 0.5; s += x + (long) d; } return s; }

    // ------------------------------------------------------------------ fourteenth session: more kinds of call and class
    static final java.lang.invoke.MethodHandle SQ_HANDLE;
    static {
        try {
            SQ_HANDLE = java.lang.invoke.MethodHandles.lookup().findStatic(Shapes.class, "sq",
                    java.lang.invoke.MethodType.methodType(int.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** A signature-polymorphic call: its descriptor is the call site's, not the method's. */
    public static int shapeInvokeExact() throws Throwable { @Future int x = (int) SQ_HANDLE.invokeExact(6); return x + 1; }
    public static long shapeInvokeWithConversion() throws Throwable { @Future long x = (long) SQ_HANDLE.invoke((short) 7); @Future Object o = SQ_HANDLE.invoke(Integer.valueOf(3)); return x + (Integer) o; }
    // The NullPointerException of a null receiver is the call's: raised at the first read, inside the handler.
    static final String expect_shapeNullReceiver = "value 101";
    public static int shapeNullReceiver() { Op op = null; int[] mark = {0}; try { @Future int x = op.apply(3); mark[0] = 1; return x; } catch (NullPointerException e) { return 100 + mark[0]; } }
    interface Calc {
        private int base(int x) { return x * 7; }
        private static int sbase(int x) { return x + 1; }
        default int run(int x) { @Future int a = base(x); @Future int b = base(x + 1); return a + b; }
        default int run2(int x) { @Future int a = sbase(x); return a * 2; }
        static int twiceSq(int v) { @Future int x = sq(v); return 2 * x; }
    }
    static final class CalcImpl implements Calc { }
    public static int shapePrivateInterfaceMethods() { Calc c = new CalcImpl(); return c.run(3) + c.run2(4) + Calc.twiceSq(5); }
    static final class Tripler implements Op {
        public int apply(int x) { return x + 1; }
        @Override public int thrice(int x) { @Future int y = Op.super.thrice(x); return y + 1; }
    }
    public static int shapeInterfaceSuperCall() { return new Tripler().thrice(4); }
    enum Figure {
        SQUARE { int area(int s) { @Future int x = sq(s); return x; } },
        TRIANGLE { int area(int s) { @Future int x = sq(s); return x / 2; } };
        abstract int area(int v);
    }
    public static int shapeEnumConstantBody() { return Figure.SQUARE.area(3) * 100 + Figure.TRIANGLE.area(4); }
    static <T extends Comparable<T>> T larger(T a, T b) { return a.compareTo(b) >= 0 ? a : b; }
    public static int shapeBoundedGenericMethod() { @Future String s = larger("pear", "apple"); @Future Integer i = larger(3, 9); int v = i; return s.length() * 10 + v; }
    public static int shapeFutureReceiverAndArgument() { @Future Adder a = pick(2); @Future int k = sq(3); @Future int x = a.plus(k); return x; }
    private int secretInstance(int v) { return v + 5; }
    class Inner { int go(int v) { @Future int x = secretInstance(v); @Future int y = Shapes.this.secretInstance(x); return y; } }
    public static int shapeOuterPrivateFromInner() { return new Shapes().new Inner().go(1); }
    // Assigned again in the handler of the call's own failure: the failure is raised at the read after the try.
    static final String expect_shapeAssignedAgainInHandler = "threw java.lang.IllegalArgumentException: bad 1";
    public static int shapeAssignedAgainInHandler() { @Future int x; try { x = fail(1); CALLS.incrementAndGet(); } catch (IllegalArgumentException e) { x = -1; } return x; }
    /** Slots past 255: the woven loads and stores need the wide form. */
    public static long shapeWideSlots() {
        long w0 = 0, w1 = 1, w2 = 2, w3 = 3, w4 = 4, w5 = 5, w6 = 6, w7 = 7, w8 = 8, w9 = 9, w10 = 10, w11 = 11, w12 = 12, w13 = 13, w14 = 14, w15 = 15, w16 = 16, w17 = 17, w18 = 18, w19 = 19, w20 = 20, w21 = 21, w22 = 22, w23 = 23, w24 = 24, w25 = 25, w26 = 26, w27 = 27, w28 = 28, w29 = 29, w30 = 30, w31 = 31, w32 = 32, w33 = 33, w34 = 34, w35 = 35, w36 = 36, w37 = 37, w38 = 38, w39 = 39, w40 = 40, w41 = 41, w42 = 42, w43 = 43, w44 = 44, w45 = 45, w46 = 46, w47 = 47, w48 = 48, w49 = 49, w50 = 50, w51 = 51, w52 = 52, w53 = 53, w54 = 54, w55 = 55, w56 = 56, w57 = 57, w58 = 58, w59 = 59, w60 = 60, w61 = 61, w62 = 62, w63 = 63, w64 = 64, w65 = 65, w66 = 66, w67 = 67, w68 = 68, w69 = 69, w70 = 70, w71 = 71, w72 = 72, w73 = 73, w74 = 74, w75 = 75, w76 = 76, w77 = 77, w78 = 78, w79 = 79, w80 = 80, w81 = 81, w82 = 82, w83 = 83, w84 = 84, w85 = 85, w86 = 86, w87 = 87, w88 = 88, w89 = 89, w90 = 90, w91 = 91, w92 = 92, w93 = 93, w94 = 94, w95 = 95, w96 = 96, w97 = 97, w98 = 98, w99 = 99, w100 = 100, w101 = 101, w102 = 102, w103 = 103, w104 = 104, w105 = 105, w106 = 106, w107 = 107, w108 = 108, w109 = 109, w110 = 110, w111 = 111, w112 = 112, w113 = 113, w114 = 114, w115 = 115, w116 = 116, w117 = 117, w118 = 118, w119 = 119, w120 = 120, w121 = 121, w122 = 122, w123 = 123, w124 = 124, w125 = 125, w126 = 126, w127 = 127, w128 = 128, w129 = 129;
        @Future int x = sq((int) (w0 + w129));
        @Future long y = big(w128 + w3);
        double d = w64 * 0.5;
        return x + y + (long) d + w100;
    }
    public static int shapeFutureInNestedLambdaInLoop() { int s = 0; for (int i = 0; i < 3; i++) { final int j = i; java.util.function.IntSupplier f = () -> { @Future int x = sq(j); @Future int y = sq(j + 1); return x + y; }; s += f.getAsInt(); } return s; }
    public static int shapeThrowsError() { @Future int x = sq(3); int r; try { @Future int e = overflow(0); r = e; } catch (StackOverflowError err) { r = -1; } return x + r; }
    /** A wait for the call keeps the thread's interrupt status (the read is not interruptible). */
    public static int shapeInterruptStatusKeptAcrossTheRead() { Thread.currentThread().interrupt(); @Future int x = fib(18); @Future int y = fib(17); int r = x + y; return r + (Thread.interrupted() ? 100_000 : 0); }
    // ------------------------------------------------------------------ the base case tested at the call (BaseCaseAtCall)
    static long halves(long n, double w) { long m = n >> 1; if (m == 0) return (long) w + n; @Future long a = halves(m, w * 0.5); long b = halves(n - m - 1, w + 1); return a + b + m; }
    public static long shapeBaseCaseOfTwoSlotArgumentsAndALocal() { return halves(3000, 3.0); }
    static int below(int n) { if (n <= 0) return 0; @Future int a = below(n - 1); return n * 2 + below(n - 2) + a; }
    public static int shapeBaseCaseWithValuesUnderTheArguments() { return below(18); }
    static final class Box { final int v; Box(int v) { this.v = v; } }
    static int boxed(int n) { if (n < 2) return n; @Future int a = boxed(n - 1); return new Box(boxed(n - 2)).v + a; }
    public static int shapeBaseCaseUnderAnUninitializedObject() { return boxed(16); }
    static int looped(int n) { int k = n; while (k > 3) k -= 3; if (k == n && n < 2) return n; @Future int a = looped(n - 1); int b = looped(n - 2); return a + b + k; }
    public static int shapeBaseCaseAfterALoopIsNotCopied() { return looped(14); }
    static int firstZero(int[] a, int i) { if (a[i] == 0) return i; @Future int r = firstZero(a, i + 1); return r; }
    public static int shapeBaseCaseThatCanThrowIsNotCopied() { try { return firstZero(new int[] {3, 2, 1}, 0); } catch (ArrayIndexOutOfBoundsException e) { return -1; } }
    static synchronized int lockedFib(int n) { if (n < 2) return n; @Future int a = lockedFib(n - 1); int b = lockedFib(n - 2); return a + b; }
    public static int shapeSynchronizedRecursion() { return lockedFib(15); }
    // ------------------------------------------------------------------ found by RandomWovenMethodsTest
    // The prologue's call of the deferring copy sits inside a try block (here after a pure prefix,
    // below at a resume point): a failure the copy lets escape past its own copy of the block must
    // leave the method, not be caught a second time by the serial method's handler.
    static int copiedFromAPrefixInATry(int d, boolean fail) {
        int acc = d;
        if (d < 0) return acc;
        try { @Future int x = sq(d); acc += x; } catch (IllegalStateException e) { acc += 1000; }
        if (fail) throw new IllegalStateException("after the try " + acc);
        return acc;
    }
    public static int shapeFailureAfterATryTheCopyRanFromAPrefix() { return copiedFromAPrefixInATry(3, true); }
    static int resumedInATry(int d, boolean fail) {
        int acc = d;
        Object made = new Object();
        if (d == made.hashCode()) return acc;
        try { @Future int x = sq(d); acc += x; } catch (IllegalStateException e) { acc += 1000; }
        if (fail) throw new IllegalStateException("after the try " + acc);
        return acc;
    }
    public static int shapeFailureAfterATryTheCopyResumedIn() { return resumedInATry(3, true); }
    // A recursion's future in a try block, with a failure after it: on a worker the entry returns
    // its worker variant (WorkerParameter) from the prologue's region, which no handler covers.
    static int recursionInATry(int n) {
        int acc = n;
        if (n < 2) return n;
        try { @Future int a = recursionInATry(n - 1); acc += a + recursionInATry(n - 2); } catch (IllegalStateException e) { acc += e.getMessage().hashCode() % 1000; }
        if (n % 5 == 4) throw new IllegalStateException("at " + n + " " + acc);
        return acc;
    }
    public static int shapeFailureAfterATryOfARecursionOnAWorker() { try { return recursionInATry(14); } catch (IllegalStateException e) { return e.getMessage().hashCode(); } }
    // Empty branches in try blocks: a goto to the next instruction is all such a range holds, and
    // it is removed from the copy; the try block must go with it (an empty range does not load).
    static int emptyBranchesInTries(int d) {
        int acc = d;
        try { try { if (acc == 7) return sq(acc); } catch (IllegalStateException e) { acc += 17; } } catch (IllegalStateException e) { acc += 5; }
        try {
            if (acc % 3 == 0) {
                @Future int x = sq(acc);
                switch (acc % 3) { case 0 -> { } case 1 -> { } default -> { } }
            } else {
            }
        } catch (IllegalStateException e) { acc += 5; }
        return acc;
    }
    public static int shapeEmptyBranchesInTries() { return emptyBranchesInTries(3) + emptyBranchesInTries(4) + emptyBranchesInTries(7); }
    static int overflow(int d) { if (d > 50) throw new StackOverflowError("deep " + d); return overflow(d + 1) + 1; }

    static class Built { final int value; Built(int v) { @Future int x = sq(v); this.value = x + 1; } }
    static class Base { int value() { return 10; } }
    static class Derived extends Base {
        @Override int value() { @Future int x = super.value(); return x + 1; }
        int twiceValue() { @Future int x = value(); return 2 * x; }
    }
}
