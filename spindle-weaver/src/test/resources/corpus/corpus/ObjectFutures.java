package corpus;

import dev.spindle.Spindle;
import dev.spindle.future.DoubleFuture;
import dev.spindle.future.IntFuture;
import dev.spindle.future.LazyFuture;
import dev.spindle.future.LongFuture;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Conformance shapes of the object API, which the weaver splits into a serial method (every
 * future made in place) and the method as written (SerialFutureSplit): every public static method
 * named shape* is run woven and unwoven and compared. In a pool of one worker every frame past
 * the entry runs the serial method; in a pool of two most do; under spawn=always none does.
 */
public class ObjectFutures {
    // ------------------------------------------------------------------ helpers
    record Node(long value, Node left, Node right) {
    }

    static Node tree(int depth, long[] next) {
        if (depth == 0) {
            return null;
        }
        Node l = tree(depth - 1, next);
        return new Node(next[0]++, l, tree(depth - 1, next));
    }

    static long sum(Node n) {
        if (n == null) {
            return 0;
        }
        LongFuture left = Spindle.futureLong(ObjectFutures::sum, n.left());      // a method reference: cast to Node
        long right = sum(n.right());
        return left.touchLong() + right + n.value();
    }

    static long fibCall(int n) {
        if (n < 2) {
            return n;
        }
        LongFuture a = Spindle.futureLong(ObjectFutures::fibCall, n - 1);
        long b = fibCall(n - 2);
        return a.touchLong() + b;
    }

    static int fibSupplier(int n) {
        if (n < 2) {
            return n;
        }
        LazyFuture<Integer> a = Spindle.future(() -> fibSupplier(n - 1));    // a capturing lambda, made in place
        int b = fibSupplier(n - 2);
        return a.touch() + b;
    }

    static int fibIntForms(int n) {
        if (n < 2) {
            return n;
        }
        IntFuture a = Spindle.futureInt(ObjectFutures::fibIntForms, n - 1);
        IntFuture b = Spindle.futureInt(() -> fibIntForms(n - 2));
        return a.touchInt() + b.touchInt();
    }

    static double area(double lo, double hi, int depth) {
        if (depth == 0) {
            return (hi - lo) * (lo + hi) / 2;
        }
        double mid = (lo + hi) / 2;
        DoubleFuture left = Spindle.futureDouble(() -> area(lo, mid, depth - 1));
        double right = area(mid, hi, depth - 1);
        return left.touchDouble() + right;
    }

    static String label(int depth) {
        if (depth == 0) {
            return "x";
        }
        LazyFuture<String> inner = Spindle.future(ObjectFutures::label, depth - 1);   // Function form, boxed argument
        return "(" + inner.touch() + ")";
    }

    static int failAt(int n, int bad) {
        if (n == bad) {
            throw new IllegalArgumentException("bad " + n);
        }
        if (n == 0) {
            return 0;
        }
        IntFuture f = Spindle.futureInt(() -> failAt(n - 1, bad));
        return f.touchInt() + 1;
    }

    static final AtomicInteger VISITS = new AtomicInteger();

    /** An effect before the base case's return: the split resumes after it rather than run it twice. */
    static int visitAll(int n) {
        VISITS.incrementAndGet();
        if (n <= 0) {
            return 1;
        }
        IntFuture a = Spindle.futureInt(() -> visitAll(n - 1));
        int b = visitAll(n - 2);
        return a.touchInt() + b;
    }

    final int offset;

    ObjectFutures(int offset) {
        this.offset = offset;
    }

    /** A lambda that uses {@code this}: an instance implementation method. */
    int shifted(int n) {
        if (n == 0) {
            return offset;
        }
        LazyFuture<Integer> f = Spindle.future(() -> shifted(n - 1) + offset);
        return f.touch();
    }

    static int boxedPlusOne(Integer x) {
        return x + 1;
    }

    // ------------------------------------------------------------------ shapes
    public static long shapeTreeSumMethodReference() {
        return sum(tree(10, new long[] {1}));
    }

    public static long shapeFibCallForm() {
        return fibCall(20);
    }

    public static int shapeFibCapturingLambda() {
        return fibSupplier(18);
    }

    public static int shapeIntForms() {
        return fibIntForms(16);
    }

    public static double shapeDoubleSupplier() {
        return area(0, 64, 9);
    }

    public static String shapeFunctionForm() {
        return label(12);
    }

    public static int shapeFailureRaisedAtTouch() {
        return failAt(12, 3);
    }

    public static String shapeFailureCaught() {
        try {
            return "value " + failAt(10, 0);
        } catch (IllegalArgumentException e) {
            return "caught " + e.getMessage();
        }
    }

    public static String shapeEffectBeforeBaseCase() {
        VISITS.set(0);
        int r = visitAll(14);
        return r + " in " + VISITS.get() + " visits";
    }

    public static int shapeInstanceLambda() {
        return new ObjectFutures(3).shifted(15);
    }

    public static int shapeBoxingMethodReferenceKeepsTheInterfaceCall() {
        // Function<Integer, Integer> over a method returning int: the lambda's class boxes, so the
        // serial method calls the function through its interface
        Function<Integer, Integer> f = ObjectFutures::boxedPlusOne;
        LazyFuture<Integer> a = Spindle.future(f, 41);
        return a.touch();
    }

    public static int shapeFuturesInALoopAreNotSplit() {
        List<IntFuture> fs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int k = i;
            fs.add(Spindle.futureInt(() -> fibIntForms(k % 12)));
        }
        int s = 0;
        for (IntFuture f : fs) {
            s += f.touchInt();
        }
        return s;
    }

    public static int shapeOperandStackNotEmpty() {
        return 1000 + Spindle.futureInt(() -> fibIntForms(10)).touchInt();
    }

    public static String shapeNullBody() {
        Supplier<String> none = null;
        LazyFuture<String> f = Spindle.future(none);
        return f.touch();
    }

    public static String shapeTouchedTwice() {
        LazyFuture<String> f = Spindle.future(() -> label(4));
        return f.touch() + f.touch() + f.isDone() + f.cancel(true) + f.isCancelled();
    }

    static final Object LOCK = new Object();

    /** A future created and touched under a monitor its body does not take (one that did could wait for its creator forever, woven or not). */
    static int guarded(int n) {
        if (n < 2) {
            return n;
        }
        synchronized (LOCK) {
            IntFuture a = Spindle.futureInt(() -> fibIntForms(n - 1));
            return a.touchInt() + n;
        }
    }

    static String tried(int n) {
        if (n == 0) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        try {
            LazyFuture<String> f = Spindle.future(() -> tried(n - 1));
            b.append(f.touch());
            if (n == 3) {
                throw new IllegalStateException("at 3");
            }
        } catch (IllegalStateException e) {
            b.append('!');
        } finally {
            b.append(n);
        }
        return b.toString();
    }

    static int branches(int n) {
        switch (n % 3) {
            case 0:
                if (n == 0) {
                    return 1;
                }
                IntFuture a = Spindle.futureInt(() -> branches(n - 1));
                return a.touchInt() * 2 % 1000;
            case 1: {
                IntFuture b = Spindle.futureInt(ObjectFutures::branches, n - 1);
                return b.touchInt() + 7;
            }
            default:
                return branches(n - 1) + 1;
        }
    }

    public static int shapeUnderAMonitor() {
        return guarded(15);
    }

    public static String shapeTryCatchFinally() {
        return tried(8);
    }

    public static int shapeSwitch() {
        return branches(40);
    }

    public static long shapeNestedLambdas() {
        LongFuture outer = Spindle.futureLong(() -> {
            LongFuture inner = Spindle.futureLong(() -> fibCall(12));
            return inner.touchLong() * 2;
        });
        return outer.touchLong();
    }

    /** A handle made here or handed in: the serial method keeps the general touch for it, and for the one handed in. */
    static int madeHereOrHandedIn(int n, IntFuture given) {
        if (n < 2) {
            return n + given.touchInt();
        }
        IntFuture a = n % 3 == 0 ? given : Spindle.futureInt(() -> madeHereOrHandedIn(n - 1, given));
        int b = madeHereOrHandedIn(n - 2, given);
        return (a.touchInt() + b) % 100_000;
    }

    public static int shapeHandleMadeHereOrHandedIn() {
        return madeHereOrHandedIn(18, Spindle.futureInt(() -> 7));
    }

    public static String shapeUntouchedFailureDoesNotStopTheCaller() {
        LazyFuture<Integer> ignored = Spindle.future(() -> failAt(2, 1));
        return "returned " + (ignored != null);
    }
}
