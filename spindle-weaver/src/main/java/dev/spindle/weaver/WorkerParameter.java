package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicVerifier;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Serial calls pass their worker: where a woven method calls a static method of its class that
 * {@link DeferringSplit} split — a recursion calling itself, typically — the call goes to a
 * <em>worker variant</em> of the callee: the same serial method under the same name with the
 * current {@code Worker} as one more parameter, whose prologue asks only
 * {@code FutureCall.mayDeferOn(worker)}, one plain load of that worker's request hint, and whose
 * own such calls pass the worker on. A static helper of the class that is not woven but stands
 * between two split methods (Knapsack's {@code take}, called by {@code search} and calling it)
 * gets a variant too, so that the worker crosses it.
 *
 * <p>Why: the serial method's prologue ({@code FutureCall.mayDefer()}) finds the worker from the
 * current thread on every frame — the thread, its class, then two fields — and a recursion's
 * frames are mostly tiny. A plain-Java model of TreeSum's walk over 1,023 nodes, 8,192 sums
 * (2026-11-29, Zen 4, JDK 25): no prologue 8.3 ms, the current thread's prologue 10.8–11.4, the
 * worker passed down and its hint read plain 8.9–9.1. Below the first serial frame of a walk the
 * room to defer cannot have grown (serial frames defer nothing, and a frame that defers gives its
 * room back before it returns), so the hint is all a frame there can learn; and deferring is
 * never needed for a result, so a frame that missed a chance to defer is slower at worst.
 *
 * <p>What: a callee's serial method (the <em>entry</em>, which callers outside the woven code
 * still call under its own descriptor) keeps its prefix and prologue, and then, instead of its
 * body, returns what its variant returns, given the current worker
 * ({@code FutureCall.serialWorker()}, null on a thread that is not one; {@code mayDeferOn} then
 * asks as {@code mayDefer} does). Where everything before the prologue may run twice
 * ({@link MethodSplit#isPure}: a base case such as {@code if (n < 2) return n;}) the variant starts
 * from the method's start. Where it may not — a {@link ResumePoint} past a call or a store, which
 * hands the deferring copy no local but the parameters — the entry, having run the prefix, calls
 * a second, <em>resume</em> variant, marked by a trailing {@code boolean} it never reads, that
 * jumps to its prologue once its handle locals are null; the variant the walk recurses through
 * runs the prefix itself and carries no flag (a flag tested at every frame was the seventh
 * argument of Knapsack's {@code search}, one more than the JVM passes in registers on x86-64).
 * A resume variant is kept only if a data-flow check of its locals passes on the skipping path
 * ({@code BasicVerifier}), else the method gets no variant. Why a thin
 * entry and not the body with a worker found after the prologue: C2 inlines a recursive method
 * into itself one level, so which levels of a walk are real frames follows from the chain of
 * methods it is compiled through; an entry that is only a call keeps the chain of the method as
 * written, where an entry with the body added a level (TreeSum-1K woven at one worker 11.0 →
 * 12.8–21.5 ms; Knapsack with its helper's variant but the body kept in the entry, 568–585 →
 * 537–637). A caller that is not such a callee finds the worker after its own prologue (a local,
 * null from the method's start). Stack traces show one more frame of the method — the entry, at
 * the prologue's line — below the first variant frame of each serial walk; otherwise they name the
 * variant as the method as written, at the same lines. The deferring copies call the entries, as
 * before.
 */
final class WorkerParameter {
    /** The worker variant's extra parameter type. */
    static final String MARKER = "Ldev/spindle/runtime/Worker;";

    private WorkerParameter() {
    }

    /**
     * Rewrites the serial methods among {@code serials} and returns the worker variants to add to
     * the class.
     *
     * @param cn      the class
     * @param serials the woven methods (the split ones are recognized by their prologue)
     * @return the variants, possibly none
     */
    static List<MethodNode> apply(ClassNode cn, List<MethodNode> serials) {
        Map<String, MethodNode> split = new LinkedHashMap<>();
        Map<String, MethodNode> resuming = new LinkedHashMap<>();     // entry's key -> its resume variant
        for (MethodNode mn : serials) {
            if ((mn.access & Opcodes.ACC_STATIC) != 0 && prologueQuestion(mn) != null
                    && argSlots(mn) + 2 <= 255) {
                if (pureBeforePrologue(mn)) {
                    split.put(mn.name + mn.desc, mn);
                } else if (resumesWithNoLocals(cn, mn)) {
                    MethodNode resume = resumeVariant(cn, mn);
                    if (resume != null) {
                        split.put(mn.name + mn.desc, mn);
                        resuming.put(mn.name + mn.desc, resume);
                    }
                }
            }
        }
        Map<String, MethodNode> targets = new LinkedHashMap<>(split);
        for (MethodNode mn : cn.methods) {
            int kind = Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE
                    | Opcodes.ACC_SYNTHETIC;
            if ((mn.access & kind) == Opcodes.ACC_STATIC && !split.containsKey(mn.name + mn.desc)
                    && !mn.name.startsWith("<") && mn.instructions.size() > 0 && argSlots(mn) + 1 <= 255
                    && prologueQuestion(mn) == null
                    && !callsOf(cn, mn, split).isEmpty() && calledBy(cn, split.values(), mn)) {
                targets.put(mn.name + mn.desc, mn);
            }
        }
        Map<String, MethodNode> called = new LinkedHashMap<>();
        for (MethodNode mn : targets.values()) {
            for (MethodInsnNode c : callsOf(cn, mn, targets)) {
                called.putIfAbsent(c.name + c.desc, targets.get(c.name + c.desc));
            }
        }
        List<MethodNode> variants = new ArrayList<>();
        if (called.isEmpty()) {
            return variants;
        }
        for (MethodNode callee : called.values()) {
            int slot = argSlots(callee);
            MethodNode v = variantOf(callee, slot, false);
            passWorker(cn, v, called, slot);
            variants.add(v);
            MethodNode resume = resuming.get(callee.name + callee.desc);
            if (resume != null) {
                passWorker(cn, resume, called, slot);
                variants.add(resume);
            }
        }
        for (MethodNode mn : split.values()) {
            if (called.containsKey(mn.name + mn.desc)) {
                returnTheVariant(cn, mn, resuming.containsKey(mn.name + mn.desc));
            } else if (!callsOf(cn, mn, called).isEmpty()) {
                findTheWorker(cn, mn, called);
            }
        }
        return variants;
    }

    /**
     * {@code callee} copied under the worker parameter in {@code slot} (and, if {@code resume}, the
     * resume variant: the marking {@code boolean} after it, and a jump to the prologue once the
     * handle locals are null, see {@link #skipToPrologue}); a prologue's {@code mayDefer()} becomes
     * {@code mayDeferOn(worker)}.
     */
    private static MethodNode variantOf(MethodNode callee, int slot, boolean resume) {
        MethodNode v = resume ? MethodSplit.copyWithMarker(callee, slot, null, MARKER, "Z")
                : MethodSplit.copyWithMarker(callee, slot, null, MARKER);
        MethodInsnNode ask = prologueQuestion(v);
        if (ask != null) {
            InsnList onWorker = new InsnList();
            onWorker.add(new VarInsnNode(Opcodes.ALOAD, slot));
            onWorker.add(new MethodInsnNode(Opcodes.INVOKESTATIC, MethodWeaver.CALL, "mayDeferOn",
                    "(" + MARKER + ")Z", false));
            v.instructions.insertBefore(ask, onWorker);
            v.instructions.remove(ask);
        }
        if (resume) {
            skipToPrologue(v, (LabelNode) onWorkerLabel(v));
        }
        return v;
    }

    /** True if a method of {@code callers} calls {@code mn}. */
    private static boolean calledBy(ClassNode cn, Iterable<MethodNode> callers, MethodNode mn) {
        Map<String, MethodNode> one = Map.of(mn.name + mn.desc, mn);
        for (MethodNode c : callers) {
            if (!callsOf(cn, c, one).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * True if {@code mn}'s prologue sits at a resume point (a label right before the question)
     * and hands the copy no local but the parameters: then a variant may skip to that point
     * once its handle locals are null, as the copy does.
     */
    private static boolean resumesWithNoLocals(ClassNode cn, MethodNode mn) {
        MethodInsnNode ask = prologueQuestion(mn);
        if (!(ask.getPrevious() instanceof LabelNode)) {
            return false;
        }
        String copyDesc = MethodSplit.withParams(mn.desc, DeferringSplit.MARKER);
        for (AbstractInsnNode i = ask; i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode m && m.owner.equals(cn.name) && m.name.equals(mn.name)) {
                return m.desc.equals(copyDesc);
            }
        }
        return false;
    }

    /**
     * {@code mn}'s resume variant, if it passes a data-flow check of its locals: the jump to the
     * prologue skips the prefix, so every local read past the prologue must hold a value of its
     * kind on that path too (the leading null stores of the handles are what the copy's resume
     * stores as well). Null if not: the method gets no variants and its callers keep calling its
     * entry.
     */
    private static MethodNode resumeVariant(ClassNode cn, MethodNode mn) {
        MethodNode v = variantOf(mn, argSlots(mn), true);
        int maxLocals = v.maxLocals;
        int maxStack = v.maxStack;
        v.maxLocals = LocalSlots.firstFree(v) + 2;
        v.maxStack = Math.max(v.maxStack, 8) + 8;
        try {
            new Analyzer<>(new BasicVerifier()).analyze(cn.name, v);
        } catch (AnalyzerException | RuntimeException e) {
            return null;
        }
        v.maxLocals = maxLocals;
        v.maxStack = maxStack;
        UnreachableCode.remove(v);
        return v;
    }

    /** The label right before the variant's prologue (its resume point). */
    private static AbstractInsnNode onWorkerLabel(MethodNode v) {
        for (AbstractInsnNode i = v.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode m && m.name.equals("mayDeferOn")) {
                return m.getPrevious().getPrevious();          // the label, then `aload worker`
            }
        }
        throw new IllegalStateException("no prologue in " + v.name + v.desc);
    }

    /** The resume variant skips to its prologue once the leading null stores of its handles ran. */
    private static void skipToPrologue(MethodNode v, LabelNode resume) {
        AbstractInsnNode after = v.instructions.getFirst();
        AbstractInsnNode last = null;
        while (after != null) {
            if (after.getOpcode() < 0) {
                after = after.getNext();
            } else if (after.getOpcode() == Opcodes.ACONST_NULL && after.getNext() instanceof VarInsnNode st
                    && st.getOpcode() == Opcodes.ASTORE) {
                last = st;
                after = st.getNext();
            } else {
                break;
            }
        }
        JumpInsnNode skip = new JumpInsnNode(Opcodes.GOTO, resume);
        if (last == null) {
            v.instructions.insert(skip);
        } else {
            v.instructions.insert(last, skip);
        }
    }

    /** Argument slots of a static method. */
    private static int argSlots(MethodNode mn) {
        return (Type.getArgumentsAndReturnSizes(mn.desc) >> 2) - 1;
    }

    /** True if everything before the prologue's question may run twice from the same parameters. */
    private static boolean pureBeforePrologue(MethodNode mn) {
        MethodInsnNode ask = prologueQuestion(mn);
        int slots = argSlots(mn);
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != ask; i = i.getNext()) {
            if (i.getOpcode() >= 0 && !(i instanceof JumpInsnNode) && !MethodSplit.isPure(i, slots)) {
                return false;
            }
        }
        return true;
    }

    /** The entry of a callee: past its prologue, {@code return variant(args…, serialWorker()[, true]);}. */
    private static void returnTheVariant(ClassNode cn, MethodNode mn, boolean resumes) {
        JumpInsnNode toSerial = (JumpInsnNode) prologueQuestion(mn).getNext();
        InsnList call = new InsnList();
        int slot = 0;
        for (Type t : Type.getArgumentTypes(mn.desc)) {
            call.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            slot += t.getSize();
        }
        call.add(new MethodInsnNode(Opcodes.INVOKESTATIC, MethodWeaver.CALL, "serialWorker", "()" + MARKER,
                false));
        if (resumes) {
            call.add(new InsnNode(Opcodes.ICONST_1));
        }
        call.add(new MethodInsnNode(Opcodes.INVOKESTATIC, cn.name, mn.name, withWorker(mn.desc, resumes),
                false));
        call.add(new InsnNode(Type.getReturnType(mn.desc).getOpcode(Opcodes.IRETURN)));
        mn.instructions.insert(toSerial.label, call);
        UnreachableCode.remove(mn);
    }

    /**
     * A caller that is not a callee: the worker into a local past its prologue (null before),
     * passed to its calls.
     */
    private static void findTheWorker(ClassNode cn, MethodNode mn, Map<String, MethodNode> called) {
        int w = LocalSlots.firstFree(mn);
        InsnList init = new InsnList();
        init.add(new InsnNode(Opcodes.ACONST_NULL));
        init.add(new VarInsnNode(Opcodes.ASTORE, w));
        mn.instructions.insert(init);
        JumpInsnNode toSerial = (JumpInsnNode) prologueQuestion(mn).getNext();
        InsnList find = new InsnList();
        find.add(new MethodInsnNode(Opcodes.INVOKESTATIC, MethodWeaver.CALL, "serialWorker", "()" + MARKER, false));
        find.add(new VarInsnNode(Opcodes.ASTORE, w));
        mn.instructions.insert(toSerial.label, find);
        passWorker(cn, mn, called, w);
        mn.maxLocals = Math.max(mn.maxLocals, w + 1);
    }

    /** The prologue's {@code FutureCall.mayDefer()} call ({@link DeferringSplit}), or null if the method has none. */
    private static MethodInsnNode prologueQuestion(MethodNode mn) {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode m && m.getOpcode() == Opcodes.INVOKESTATIC && m.owner.equals(MethodWeaver.CALL)
                    && m.name.equals("mayDefer") && m.desc.equals("()Z")
                    && m.getNext() instanceof JumpInsnNode j && j.getOpcode() == Opcodes.IFEQ) {
                return m;
            }
        }
        return null;
    }

    /** {@code mn}'s calls to the methods of {@code targets} (static methods of the class). */
    private static List<MethodInsnNode> callsOf(ClassNode cn, MethodNode mn, Map<String, MethodNode> targets) {
        List<MethodInsnNode> calls = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode m && m.getOpcode() == Opcodes.INVOKESTATIC && m.owner.equals(cn.name)
                    && targets.containsKey(m.name + m.desc)) {
                calls.add(m);
            }
        }
        return calls;
    }

    /** Each call of {@code mn} to a method of {@code called}: the worker in {@code slot} pushed, the variant called. */
    private static void passWorker(ClassNode cn, MethodNode mn, Map<String, MethodNode> called, int slot) {
        for (MethodInsnNode c : callsOf(cn, mn, called)) {
            mn.instructions.insertBefore(c, new VarInsnNode(Opcodes.ALOAD, slot));
            c.desc = withWorker(c.desc, false);
        }
    }

    /** {@code desc} with the worker as a trailing parameter, and the resume variant's marking {@code boolean} after it if asked. */
    static String withWorker(String desc, boolean resume) {
        return resume ? MethodSplit.withParams(desc, MARKER, "Z") : MethodSplit.withParams(desc, MARKER);
    }
}
