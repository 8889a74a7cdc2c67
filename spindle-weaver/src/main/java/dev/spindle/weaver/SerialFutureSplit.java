package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits a method that creates futures through the object API ({@code Spindle.future(() -> …)},
 * {@code Spindle.futureLong(Fib::fib, n - 1)}, their primitive and call forms, and the handle
 * classes' {@code of} factories) into a <em>serial</em> method and a <em>deferring</em> one, as
 * {@link DeferringSplit} does for {@code @Future} variables.
 *
 * <p>Why: the runtime runs nearly every future at its creation and keeps only a few latent (the
 * oldest, ARCHITECTURE §8). Where it has kept one at all — any pool of two workers or more — C2
 * compiles the latent path into the caller: the lambda then escapes into the stack on that path,
 * so it and the handle are allocated on every path (C2 has no partial escape analysis), and the
 * values the paths merge are held across the continuation. FFT's code compiled at two workers
 * ran 1.37× its one-worker code on one worker (PERFORMANCE.md, futures suite, "Twenty-third
 * session"). And a future run at its creation still goes through the factory's decision and, for
 * the call forms, an out-of-line call.
 *
 * <p>What: the method as written becomes a private synthetic copy with a trailing
 * {@code SerialFutures} marker parameter (always null). In the original, each factory call whose
 * operand stack holds nothing but its arguments becomes the body's own call in the method's code
 * — {@code supplier.get()}, {@code fn.applyAsLong(arg)}, after the factory's null check and
 * {@code SerialFutures.countMadeInPlace()} — inside a try/catch, then
 * {@code SerialFutures.handleLong(value, null)} (or its sibling) builds the handle holding the
 * value, or — from the handler, which joins it there — {@code handleLong(0, failure)}
 * one holding the failure (one allocation site for both, so that a live handler does not make the
 * handle escape), raised at every
 * touch and reported if untouched, as for any future that failed at its creation. Where the body
 * is a lambda or method reference whose implementation method can be called in its place
 * ({@link LambdaTarget}), that method is called and no lambda is created. Each
 * {@code LazyFuture.touch()} becomes {@code SerialFutures.touch(f)}, and each
 * {@code LongFuture.touchLong()}, {@code IntFuture.touchInt()} and
 * {@code DoubleFuture.touchDouble()} its {@code SerialFutures} namesake: the same fast path, with a
 * branch profile the methods as written do not share, in a method too small to be compiled into a
 * big one (a primitive touch runs a popped body in itself, and compiled on its own it was refused
 * to its callers, which then allocated the handle). A touch whose handle is, on every path, one the
 * serial method built itself becomes {@code SerialFutures.touchInPlace(f)} (or its primitive
 * sibling) instead, which only reports the handle's final cell: the general touch's branch to the
 * handle's own touch compiles as a trap only where C2 has that branch's profile, and otherwise
 * passes the handle to a call, which keeps it allocated (Knapsack: 40 bytes per future in JVMs that
 * skipped tier-3 code). A prologue
 * {@code if (SerialFutures.mayKeepLatent()) return copy(args…, SerialFutures.asWritten());} — after the method's pure
 * prefix, or at a {@link ResumePoint} — sends a frame whose futures the stack could keep latent
 * (it holds fewer than it keeps, or a worker asked for work) to the method as written; every
 * other frame runs the serial method, where each future runs at its creation. Running a future
 * at its creation is always allowed (a future declares only that its body <em>may</em> run
 * concurrently with what follows), so the split changes when the decision is taken — once per
 * frame, at the prologue — not what any future may do.
 *
 * <p>Not split: constructors and class initializers, methods of interfaces, methods whose
 * parameters fill 255 slots, methods with {@code @Future} variables (their own split decides
 * their frames), and methods with a factory call inside a loop: a serial frame makes no latent
 * future until it returns, and a loop of futures in one frame is where a request arriving midway
 * must find the next future latent.
 */
final class SerialFutureSplit {
    /** The runtime's side: {@code dev.spindle.future.SerialFutures}. */
    static final String SERIAL = "dev/spindle/future/SerialFutures";
    /** The type of the deferring copy's extra parameter. */
    static final String MARKER = "L" + SERIAL + ";";
    private static final MethodSplit.Question ASK = new MethodSplit.Question(SERIAL, "mayKeepLatent", "asWritten");

    private static final String FUTURES = "dev/spindle/future/";
    private static final String HANDLE = FUTURES + "LazyFuture";
    private static final String LAZY = "L" + HANDLE + ";";
    private static final String LONG = "Ldev/spindle/future/LongFuture;";
    private static final String INT = "Ldev/spindle/future/IntFuture;";
    private static final String DOUBLE = "Ldev/spindle/future/DoubleFuture;";

    /**
     * A factory the serial method replaces by the body's own call: {@code Spindle.<name>(<iface>…)}
     * and its twin {@code <Handle>.of(<iface>…)}.
     *
     * @param iface      the functional interface, internal name
     * @param method     its method
     * @param methodDesc that method's descriptor
     * @param handle     the handle's descriptor
     * @param what       the function's name in the factory's NullPointerException
     */
    private record Factory(String iface, String method, String methodDesc, String handle, String what) {
        /** The kind in the {@code SerialFutures} methods' names: "", "Long", "Int" or "Double". */
        private String kind() {
            return handle.equals(LAZY) ? "" : handle.substring(handle.lastIndexOf('/') + 1, handle.indexOf("Future"));
        }

        /** The {@code SerialFutures} method that builds the handle of a value or a failure: {@code handle} + the kind. */
        String builder() {
            return "handle" + kind();
        }

        /** The body's value as the handle's builder takes it: a primitive, or any object. */
        Type value() {
            Type value = Type.getReturnType(methodDesc);
            return value.getSort() == Type.OBJECT ? Type.getType(Object.class) : value;
        }

        String builderDesc() {
            return "(" + value().getDescriptor() + "Ljava/lang/Throwable;)" + handle;
        }
    }

    /** The names of the {@code SerialFutures} methods that build a handle made in place. */
    private static final Set<String> BUILDERS = Set.of("handle", "handleLong", "handleInt", "handleDouble");

    /** The factories by owner, name and descriptor. */
    private static final Map<String, Factory> FACTORIES = factories();

    private SerialFutureSplit() {
    }

    private static Map<String, Factory> factories() {
        String obj = "Ljava/lang/Object;";
        String fn = "java/util/function/";
        Map<String, Factory> m = new HashMap<>();
        add(m, "future", null, new Factory(fn + "Supplier", "get", "()" + obj, LAZY, "body"));
        add(m, "futureLong", null, new Factory(fn + "LongSupplier", "getAsLong", "()J", LONG, "body"));
        add(m, "futureInt", null, new Factory(fn + "IntSupplier", "getAsInt", "()I", INT, "body"));
        add(m, "futureDouble", null, new Factory(fn + "DoubleSupplier", "getAsDouble", "()D", DOUBLE, "body"));
        add(m, "future", obj, new Factory(fn + "Function", "apply", "(" + obj + ")" + obj, LAZY, "fn"));
        add(m, "futureLong", obj, new Factory(fn + "ToLongFunction", "applyAsLong", "(" + obj + ")J", LONG, "fn"));
        add(m, "futureLong", "I", new Factory(fn + "IntToLongFunction", "applyAsLong", "(I)J", LONG, "fn"));
        add(m, "futureInt", obj, new Factory(fn + "ToIntFunction", "applyAsInt", "(" + obj + ")I", INT, "fn"));
        add(m, "futureInt", "I", new Factory(fn + "IntUnaryOperator", "applyAsInt", "(I)I", INT, "fn"));
        add(m, "futureDouble", obj, new Factory(fn + "ToDoubleFunction", "applyAsDouble", "(" + obj + ")D", DOUBLE, "fn"));
        return Map.copyOf(m);
    }

    /** Registers {@code Spindle.<name>(iface[, arg])} and the handle's {@code of} with the same parameters. */
    private static void add(Map<String, Factory> m, String name, String arg, Factory f) {
        String desc = "(L" + f.iface() + ";" + (arg == null ? "" : arg) + ")" + f.handle();
        m.put("dev/spindle/Spindle." + name + desc, f);
        m.put(Type.getType(f.handle()).getInternalName() + ".of" + desc, f);
    }

    /** The factory {@code i} calls, or null. */
    private static Factory factory(AbstractInsnNode i) {
        if (i instanceof MethodInsnNode m && m.getOpcode() == Opcodes.INVOKESTATIC) {
            return FACTORIES.get(m.owner + "." + m.name + m.desc);
        }
        return null;
    }

    /** True for a call of a factory the split rewrites. */
    static boolean isFactory(AbstractInsnNode i) {
        return factory(i) != null;
    }

    /**
     * True if the method calls a factory at all: a candidate for {@link #split}.
     *
     * @param mn a method
     * @return whether it creates futures through the object API
     */
    static boolean mentions(MethodNode mn) {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (isFactory(i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Splits {@code mn} if it can be split.
     *
     * @param cn the class
     * @param mn a method that calls a factory and has no {@code @Future} variable; rewritten in
     *           place into the serial method
     * @return the deferring copy to add to the class, or null if the method is left as it was
     */
    static Result split(ClassNode cn, MethodNode mn) {
        if (!MethodSplit.splittable(cn, mn)) {
            return null;                                     // before the analyses below
        }
        List<AbstractInsnNode> sites = rewritableSites(cn, mn);
        if (sites == null || sites.isEmpty()) {
            return null;
        }
        MethodSplit.Split split = MethodSplit.copy(cn, mn, SerialFutureSplit::isFactory, MARKER);
        if (split == null) {
            return null;
        }
        Map<AbstractInsnNode, Direct> direct = directCalls(cn, mn, sites);
        int next = Math.max(mn.maxLocals, split.argSlots());
        for (AbstractInsnNode site : sites) {
            next = runInPlace(mn, (MethodInsnNode) site, next, direct.get(site));
        }
        mn.maxLocals = next;
        Set<AbstractInsnNode> inPlace = touchesOfHandlesBuiltHere(cn, mn);
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            MethodInsnNode t = i instanceof MethodInsnNode m ? serialTouch(m, inPlace.contains(i)) : null;
            if (t != null) {
                mn.instructions.set(i, t);
                i = t;
            }
        }
        MethodSplit.addPrologue(cn, mn, split, ASK);
        return new Result(split.copy(), sites.size());
    }

    /**
     * The serial method's own touch for a handle's touch ({@code LazyFuture.touch()},
     * {@code LongFuture.touchLong()}, {@code touchInt()}, {@code touchDouble()}): the same fast
     * path in a small static method of {@code SerialFutures}, with a branch profile of its own and
     * never compiled into a big method; or, for a handle built in this frame ({@code builtHere}),
     * {@code SerialFutures.touchInPlace} and its siblings, which only report the handle's final
     * cell. Null for any other call.
     */
    private static MethodInsnNode serialTouch(MethodInsnNode m, boolean builtHere) {
        if (!isTouch(m)) {
            return null;
        }
        // the same name, the handle as its one parameter: touchLong()J → touchLong(LongFuture)J,
        // or touchLongInPlace(LongFuture)J
        String name = builtHere ? m.name + "InPlace" : m.name;
        return new MethodInsnNode(Opcodes.INVOKESTATIC, SERIAL, name, "(L" + m.owner + ";" + m.desc.substring(1), false);
    }

    /** True for a call of a handle's touch: {@code LazyFuture.touch()} or a primitive handle's. */
    private static boolean isTouch(MethodInsnNode m) {
        return m.getOpcode() == Opcodes.INVOKEVIRTUAL && switch (m.owner + "." + m.name + m.desc) {
            case HANDLE + ".touch()Ljava/lang/Object;", FUTURES + "LongFuture.touchLong()J",
                    FUTURES + "IntFuture.touchInt()I", FUTURES + "DoubleFuture.touchDouble()D" -> true;
            default -> false;
        };
    }

    /**
     * The touches of the serial method {@code mn} (its sites already made in place) whose handle,
     * on every path, is one its builder made in this frame ({@code SerialFutures.handle} and its
     * siblings): every value the touched reference can hold comes, through locals, casts and
     * copies, from a builder's call. Such a handle's cell is final from its construction, so its
     * touch needs no branch to the general touch, which C2 compiles as a trap only where it has a
     * branch profile, and which otherwise passes the handle to a call, so that escape analysis
     * cannot remove it. A handle from anywhere else — a parameter, a field, a factory call left as
     * written, a method's result — keeps the general touch.
     */
    private static Set<AbstractInsnNode> touchesOfHandlesBuiltHere(ClassNode cn, MethodNode mn) {
        int oldStack = mn.maxStack;
        mn.maxStack = Math.min(65535, oldStack + 8);       // the builder's arguments; the writer recomputes it
        Frame<SourceValue>[] frames;
        try {
            frames = new Analyzer<>(new SourceInterpreter()).analyze(cn.name, mn);
        } catch (AnalyzerException e) {
            return Set.of();
        } finally {
            mn.maxStack = oldStack;
        }
        InsnList l = mn.instructions;
        Set<AbstractInsnNode> touches = new HashSet<>();
        for (int k = 0; k < l.size(); k++) {
            Frame<SourceValue> f = frames[k];
            if (f != null && l.get(k) instanceof MethodInsnNode m && isTouch(m)
                    && builtHere(f.getStack(f.getStackSize() - 1), frames, l, new HashSet<>())) {
                touches.add(m);
            }
        }
        return touches;
    }

    /**
     * True if every instruction that may have produced {@code v} is a builder's call, seen through
     * stores and loads of locals, {@code checkcast} and {@code dup}; a cycle of copies adds no
     * producer. A value with no producing instruction (a parameter, {@code this}) is not built here.
     */
    private static boolean builtHere(SourceValue v, Frame<SourceValue>[] frames, InsnList l, Set<AbstractInsnNode> seen) {
        if (v.insns.isEmpty()) {
            return false;
        }
        for (AbstractInsnNode p : v.insns) {
            if (!seen.add(p)) {
                continue;
            }
            Frame<SourceValue> f = frames[l.indexOf(p)];
            boolean built = switch (p.getOpcode()) {
                case Opcodes.INVOKESTATIC -> p instanceof MethodInsnNode m && m.owner.equals(SERIAL) && BUILDERS.contains(m.name);
                case Opcodes.ALOAD -> f != null && builtHere(f.getLocal(((VarInsnNode) p).var), frames, l, seen);
                case Opcodes.ASTORE, Opcodes.CHECKCAST, Opcodes.DUP ->
                        f != null && builtHere(f.getStack(f.getStackSize() - 1), frames, l, seen);
                default -> false;
            };
            if (!built) {
                return false;
            }
        }
        return true;
    }

    /**
     * A split made.
     *
     * @param deferring the method as written, to add to the class
     * @param inPlace   how many factory calls the serial method makes in place
     */
    record Result(MethodNode deferring, int inPlace) {
    }

    /**
     * A site whose body is called as its lambda's implementation method.
     *
     * @param target the implementation method
     * @param indy   for a supplier form, the {@code invokedynamic} right before the factory call,
     *               which the rewrite removes; null for a call form, whose function stays unused
     */
    private record Direct(LambdaTarget target, InvokeDynamicInsnNode indy) {
    }

    /**
     * The factory calls the serial method can make in place — those whose operand stack holds only
     * their arguments, so that the handler of the body's call, which finds an empty stack, loses
     * nothing — or null if a factory call lies in a loop (the method is then not split).
     */
    private static List<AbstractInsnNode> rewritableSites(ClassNode cn, MethodNode mn) {
        InsnList l = mn.instructions;
        int n = l.size();
        List<BitSet> succ = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            succ.add(new BitSet());
        }
        Frame<BasicValue>[] frames;
        try {
            frames = new Analyzer<BasicValue>(new BasicInterpreter()) {
                @Override
                protected void newControlFlowEdge(int insn, int successor) {
                    succ.get(insn).set(successor);
                }

                @Override
                protected boolean newControlFlowExceptionEdge(int insn, int successor) {
                    succ.get(insn).set(successor);
                    return true;
                }
            }.analyze(cn.name, mn);
        } catch (AnalyzerException e) {
            return null;
        }
        List<AbstractInsnNode> sites = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            AbstractInsnNode i = l.get(k);
            if (!isFactory(i)) {
                continue;
            }
            if (reaches(succ, k, k)) {
                return null;                                  // a factory call in a loop
            }
            Frame<BasicValue> f = frames[k];
            int args = Type.getArgumentTypes(((MethodInsnNode) i).desc).length;
            if (f != null && f.getStackSize() == args) {
                sites.add(i);
            }
        }
        return sites;
    }

    /**
     * The sites whose body the serial method can call as its implementation method
     * ({@link LambdaTarget}): a supplier form whose lambda is created right before the factory
     * call (its captured values are then what the stack holds there), or a call form whose
     * function is a lambda or method reference that captures nothing.
     */
    private static Map<AbstractInsnNode, Direct> directCalls(ClassNode cn, MethodNode mn,
            List<AbstractInsnNode> sites) {
        Map<AbstractInsnNode, Direct> direct = new HashMap<>();
        Set<LabelNode> used = LambdaTarget.usedLabels(mn);
        Frame<SourceValue>[] sources;
        try {
            sources = new Analyzer<>(new SourceInterpreter()).analyze(cn.name, mn);
        } catch (AnalyzerException e) {
            return direct;
        }
        for (AbstractInsnNode site : sites) {
            Factory f = factory(site);
            int args = Type.getArgumentTypes(((MethodInsnNode) site).desc).length;
            Frame<SourceValue> fr = sources[mn.instructions.indexOf(site)];
            if (fr == null) {
                continue;
            }
            SourceValue fn = fr.getStack(fr.getStackSize() - args);
            if (fn.insns.size() != 1 || !(fn.insns.iterator().next() instanceof InvokeDynamicInsnNode indy)) {
                continue;
            }
            LambdaTarget t = LambdaTarget.of(cn, indy, f.methodDesc());
            if (t == null) {
                continue;
            }
            if (args == 1 && LambdaTarget.indyRightBefore(site, used) == indy) {
                direct.put(site, new Direct(t, indy));           // a supplier: its captures become the arguments
            } else if (args > 1 && t.captured().length == 0) {
                direct.put(site, new Direct(t, null));           // a call form over a constant function
            }
        }
        return direct;
    }

    /** True if instruction {@code to} can be reached from the successors of {@code from}. */
    private static boolean reaches(List<BitSet> succ, int from, int to) {
        BitSet seen = new BitSet();
        List<Integer> work = new ArrayList<>();
        succ.get(from).stream().forEach(work::add);
        while (!work.isEmpty()) {
            int k = work.remove(work.size() - 1);
            if (k == to) {
                return true;
            }
            if (!seen.get(k)) {
                seen.set(k);
                succ.get(k).stream().forEach(work::add);
            }
        }
        return false;
    }

    /** The zero of a value type: what the failure's path passes for the value it has not. */
    private static AbstractInsnNode zero(Type t) {
        return new InsnNode(switch (t.getSort()) {
            case Type.LONG -> Opcodes.LCONST_0;
            case Type.DOUBLE -> Opcodes.DCONST_0;
            case Type.OBJECT -> Opcodes.ACONST_NULL;
            default -> Opcodes.ICONST_0;
        });
    }

    /**
     * Replaces the factory call {@code site} by the body's own call: its arguments into fresh locals
     * from {@code next} on, the factory's null check, the future's count, the call in a try/catch of
     * Throwable, and the {@code SerialFutures} handle of its value or its failure. With a {@link Direct} target, the call
     * is its implementation's: for a supplier form created by its {@code indy} right before, the
     * {@code invokedynamic} goes and its captured values are the call's first arguments; for a call
     * form, the function (a constant) is left unused.
     *
     * @return the next free local
     */
    private static int runInPlace(MethodNode mn, MethodInsnNode site, int next, Direct d) {
        Factory f = factory(site);
        LambdaTarget direct = d == null ? null : d.target();
        InvokeDynamicInsnNode indy = d == null ? null : d.indy();
        Type[] args = indy != null ? direct.captured() : Type.getArgumentTypes(site.desc);
        int[] slots = new int[args.length];
        for (int a = 0; a < args.length; a++) {
            slots[a] = next;
            next += args[a].getSize();
        }
        InsnList c = new InsnList();
        for (int a = args.length - 1; a >= 0; a--) {
            c.add(new VarInsnNode(args[a].getOpcode(Opcodes.ISTORE), slots[a]));
        }
        if (indy == null) {
            c.add(new VarInsnNode(Opcodes.ALOAD, slots[0]));  // the factory's check, outside the try
            c.add(new LdcInsnNode(f.what()));
            c.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/util/Objects", "requireNonNull",
                    "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;", false));
            c.add(new InsnNode(Opcodes.POP));
        }
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        LabelNode done = new LabelNode();
        // the future exists from here: counted before the call, where the prologue's thread is at hand
        c.add(new MethodInsnNode(Opcodes.INVOKESTATIC, SERIAL, "countMadeInPlace", "()V", false));
        c.add(start);
        if (indy != null) {
            for (int a = 0; a < args.length; a++) {
                c.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), slots[a]));
            }
            c.add(direct.call());
        } else if (direct != null) {
            for (int a = 1; a < args.length; a++) {
                c.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), slots[a]));
                Type p = direct.parameter(a - 1);
                if (args[a].getSort() == Type.OBJECT && !p.equals(args[a])) {
                    c.add(new TypeInsnNode(Opcodes.CHECKCAST, p.getInternalName()));
                }
            }
            c.add(direct.call());
        } else {
            for (int a = 0; a < args.length; a++) {
                c.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), slots[a]));
            }
            c.add(new MethodInsnNode(Opcodes.INVOKEINTERFACE, f.iface(), f.method(), f.methodDesc(), true));
        }
        // One builder call for both outcomes — the value and no failure, or a zero and the failure —
        // so the handle has one allocation site, after the paths merge: where the call above is
        // not inlined its handler is live, and two handles merged there would both escape.
        int failure = next++;
        c.add(end);
        c.add(new InsnNode(Opcodes.ACONST_NULL));
        c.add(new JumpInsnNode(Opcodes.GOTO, done));
        c.add(handler);
        c.add(new VarInsnNode(Opcodes.ASTORE, failure));
        c.add(zero(f.value()));
        c.add(new VarInsnNode(Opcodes.ALOAD, failure));
        c.add(done);
        c.add(new MethodInsnNode(Opcodes.INVOKESTATIC, SERIAL, f.builder(), f.builderDesc(), false));
        // first in the table: the innermost handler, ahead of any the user's code has around the call
        mn.tryCatchBlocks.add(0, new TryCatchBlockNode(start, end, handler, "java/lang/Throwable"));
        mn.instructions.insert(site, c);
        mn.instructions.remove(site);
        if (indy != null) {
            mn.instructions.remove(indy);
        }
        return next;
    }
}
