package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The last rewrite of a woven method: splits it into a <em>serial</em> method and a
 * <em>deferring</em> one, so that the code a frame runs when it cannot defer is compiled apart
 * from the code that defers.
 *
 * <p>Why: in a JVM where calls are deferred at all (a pool of two workers or more), the
 * JIT compiles the deferral paths — records, submit, the first read's touch — into the same
 * method as the call made at its declaration, although nearly every frame makes its calls right
 * there, and keeps the handle live across the recursion. Measured before this split, in JVMs
 * that had deferred: one worker ran woven Knapsack 12–20% and fib 36–42% slower than
 * ForkJoinPool's tuned versions (ARCHITECTURE §10 has the figures with the split).
 *
 * <p>What: the woven method as {@link MethodWeaver} made it is copied into a private synthetic
 * method of the same name whose descriptor has one more parameter, a {@code FutureCall} that is
 * always null (so stack traces name the method as written, at the same lines). In the original,
 * every {@code FutureCall.begin} becomes null — the call is made at its declaration, its failure
 * kept for the first read as before unless no handler of the method could tell it from a failure
 * thrown at the declaration ({@link DeclarationRaise}), and the JIT folds the record paths away — and a
 * prologue asks {@code FutureCall.mayDefer()} (a few loads from the current thread) whether this
 * frame could defer, and if so runs the copy instead. The prologue comes after the method's pure
 * prefix (its base case, typically), so the leaves of a recursion never ask; where the base case
 * has effects the prologue comes after it and the copy resumes there ({@link ResumePoint}). The
 * recursion's calls go to the original — or to its worker variant, whose prologue reads only the
 * worker's request hint ({@link WorkerParameter}) — so each frame decides for itself.
 *
 * <p>Not split (woven as before): constructors and class initializers, methods of interfaces,
 * methods whose parameters already fill 255 slots, and methods that never defer (every call in a
 * monitor region).
 */
final class DeferringSplit {
    /** The type of the copy's extra parameter. */
    static final String MARKER = "L" + MethodWeaver.CALL + ";";
    /** The question the serial method's prologue asks. */
    private static final MethodSplit.Question ASK = new MethodSplit.Question(MethodWeaver.CALL, "mayDefer", null);

    private DeferringSplit() {
    }

    /**
     * Splits {@code mn} (already woven) if it can be split.
     *
     * @param cn the class
     * @param mn the woven method, rewritten in place into the serial method
     * @return the deferring copy to add to the class, or null if the method is left as it was
     */
    static MethodNode split(ClassNode cn, MethodNode mn, MethodWeaver woven) {
        if (!defers(mn)) {
            return null;
        }
        MethodSplit.Split split = MethodSplit.copy(cn, mn, DeferringSplit::isBegin, MARKER);
        if (split == null) {
            return null;
        }
        serialize(mn);
        DeclarationRaise.apply(mn, woven.siteHandlers, woven.catchAll, woven.pendingSlot());
        MethodSplit.addPrologue(cn, mn, split, ASK);
        return split.copy();
    }

    /** True if the woven method can defer a call at all (every call in a monitor region is made in place). */
    private static boolean defers(MethodNode mn) {
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (isBegin(i)) {
                return true;
            }
        }
        return false;
    }

    /** True for a {@code FutureCall.begin} call: a declaration that may defer. */
    static boolean isBegin(AbstractInsnNode i) {
        return i instanceof MethodInsnNode m && m.owner.equals(MethodWeaver.CALL) && m.name.equals("begin");
    }

    /**
     * In the serial method, every {@code begin(site)} becomes {@code null}: the call is made at its
     * declaration. {@link MethodWeaver}'s {@code body; begin; dup; astore handle; ifnull eager}
     * becomes {@code aconst_null; astore handle; goto eager}, and the deferral path it skipped is
     * deleted with the rest of the dead code, so the serial method is not larger than it needs to be.
     */
    private static void serialize(MethodNode mn) {
        List<AbstractInsnNode> begins = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (isBegin(i)) {
                begins.add(i);
            }
        }
        InsnList insns = mn.instructions;
        for (AbstractInsnNode b : begins) {
            AbstractInsnNode body = b.getPrevious();
            AbstractInsnNode dup = b.getNext();
            AbstractInsnNode store = dup == null ? null : dup.getNext();
            AbstractInsnNode test = store == null ? null : store.getNext();
            if (body instanceof InvokeDynamicInsnNode && dup != null && dup.getOpcode() == Opcodes.DUP
                    && store != null && store.getOpcode() == Opcodes.ASTORE
                    && test instanceof JumpInsnNode j && j.getOpcode() == Opcodes.IFNULL) {
                insns.remove(body);
                insns.remove(b);
                insns.set(dup, new InsnNode(Opcodes.ACONST_NULL));
                insns.set(test, new JumpInsnNode(Opcodes.GOTO, j.label));
            } else {
                InsnList l = new InsnList();
                l.add(new InsnNode(Opcodes.POP));
                l.add(new InsnNode(Opcodes.ACONST_NULL));
                insns.insert(b, l);
                insns.remove(b);
            }
        }
        UnreachableCode.remove(mn);
    }

}
