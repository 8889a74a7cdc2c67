package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Where a split method asks whether to defer when its base case is not pure: just after the last
 * {@code return} that comes before its first future declaration — past
 * {@code offer(best, value); if (bound(…) <= best.get()) return 0;} in a branch and bound, past a
 * leaf that writes its result in a divide and conquer — so that the leaves of a recursion do not
 * ask. The deferring copy cannot run such a prefix again (it has effects), so it <em>resumes</em>
 * there: the prologue passes it the frame's locals, and the copy stores them into their slots and
 * jumps to the same point of its own body. Whatever the copy then does is what the method would
 * have done from that point with begins enabled; a loop that leads back over the point asks again,
 * which is as correct.
 *
 * <p>The point must have an empty operand stack and come after no {@code monitorenter} (the copy
 * would skip it), and no branch before it may jump past it (so that every path into the method's
 * futures asks). It may lie inside a try block — the weaver's own catch-all that touches
 * outstanding futures on an exceptional exit covers it — since jumping into a protected range is
 * valid and the copy's handlers are the method's. Each local there must have one known type — what
 * {@link ExactTypeInterpreter} finds — or hold {@code null}; a parameter's slot must still hold a
 * value of the parameter's type. Otherwise there is no resume point and the split asks where it
 * did before (after a pure prefix, or at the entry).
 *
 * @param at     the instruction before which the prologue goes
 * @param label  a new label to insert before {@code at}: where the copy jumps
 * @param passed locals past the parameters that the copy receives, in slot order
 * @param nulls  slots past the parameters that hold {@code null} there: the copy stores null
 */
record ResumePoint(AbstractInsnNode at, LabelNode label, List<Local> passed, List<Integer> nulls) {
    /** One local the copy receives: its slot in the woven method and its type. */
    record Local(int slot, Type type) {
    }

    /**
     * The resume point of a woven method, or null if it has none.
     *
     * @param cn       the class
     * @param mn       the woven method, before the split changes it
     * @param argSlots slots of its parameters, the receiver included
     * @param isSite   what counts as a future's declaration
     */
    static ResumePoint find(ClassNode cn, MethodNode mn, int argSlots, Predicate<AbstractInsnNode> isSite) {
        InsnList l = mn.instructions;
        AbstractInsnNode firstBegin = null;
        AbstractInsnNode lastReturn = null;
        for (AbstractInsnNode i = l.getFirst(); i != null && firstBegin == null; i = i.getNext()) {
            int op = i.getOpcode();
            if (isSite.test(i)) {
                firstBegin = i;
            } else if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                lastReturn = i;
            } else if (op == Opcodes.MONITORENTER) {
                return null;
            }
        }
        if (firstBegin == null || lastReturn == null) {
            return null;
        }
        AbstractInsnNode at = FutureVariableFinder.nextReal(lastReturn.getNext());
        if (at == null) {
            return null;
        }
        int atIndex = l.indexOf(at);
        for (AbstractInsnNode i = l.getFirst(); i != at; i = i.getNext()) {
            for (LabelNode t : MethodWeaver.targets(i)) {
                if (l.indexOf(t) > atIndex) {
                    return null;                                   // a path would skip the question
                }
            }
        }
        Frame<BasicValue> f = frameAt(cn, mn, atIndex);
        if (f == null || f.getStackSize() != 0) {
            return null;
        }
        if (!parametersIntact(mn, f)) {
            return null;
        }
        List<Local> passed = new ArrayList<>();
        List<Integer> nulls = new ArrayList<>();
        for (int slot = argSlots; slot < f.getLocals(); slot++) {
            BasicValue v = f.getLocal(slot);
            if (v == ExactTypeInterpreter.NULL) {
                nulls.add(slot);
            } else if (v == ExactTypeInterpreter.UNKNOWN || v == BasicValue.RETURNADDRESS_VALUE) {
                return null;
            } else if (v.getType() != null) {
                passed.add(new Local(slot, v.getType()));
                slot += v.getSize() - 1;
            }
        }
        int slots = argSlots + 1;
        for (Local x : passed) {
            slots += x.type().getSize();
        }
        if (slots > 255) {
            return null;
        }
        return new ResumePoint(at, new LabelNode(), passed, nulls);
    }

    /** Each parameter's slot holds a value of the parameter's own type (or null). */
    private static boolean parametersIntact(MethodNode mn, Frame<BasicValue> f) {
        ExactTypeInterpreter types = new ExactTypeInterpreter();
        int slot = 0;
        if ((mn.access & Opcodes.ACC_STATIC) == 0) {
            slot = 1;                      // the receiver: javac never stores into slot 0 of an instance method
            BasicValue self = f.getLocal(0);
            if (!self.isReference() || self == ExactTypeInterpreter.UNKNOWN || self == ExactTypeInterpreter.NULL) {
                return false;
            }
        }
        for (Type t : Type.getArgumentTypes(mn.desc)) {
            BasicValue v = f.getLocal(slot);
            if (!v.equals(types.newValue(t)) && !(v == ExactTypeInterpreter.NULL && t.getSize() == 1
                    && (t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY))) {
                return false;
            }
            slot += t.getSize();
        }
        return true;
    }

    /** The frame before instruction {@code index} of the woven method, whose maximums may be stale. */
    private static Frame<BasicValue> frameAt(ClassNode cn, MethodNode mn, int index) {
        int maxLocals = LocalSlots.end(mn);
        int maxArgs = 0;
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof MethodInsnNode m) {
                maxArgs = Math.max(maxArgs, Type.getArgumentsAndReturnSizes(m.desc) >> 2);
            }
        }
        int oldLocals = mn.maxLocals;
        int oldStack = mn.maxStack;
        mn.maxLocals = maxLocals;
        mn.maxStack = Math.min(65535, oldStack + maxArgs + 8);   // the weaver's loads for a call: at most its arguments more
        try {
            return new Analyzer<>(new ExactTypeInterpreter()).analyze(cn.name, mn)[index];
        } catch (AnalyzerException e) {
            return null;                                            // no resume point: the split asks as before
        } finally {
            mn.maxLocals = oldLocals;
            mn.maxStack = oldStack;
        }
    }
}
