package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The mechanics both splits share ({@link DeferringSplit} for {@code @Future} variables,
 * {@link SerialFutureSplit} for the object API's futures): a method copied under the same name
 * with one more, always-null marker parameter, and a prologue in the original that asks a
 * runtime question and, if the answer is yes, returns what the copy returns — asked after the
 * method's pure prefix, or at a {@link ResumePoint} that the copy resumes from.
 */
final class MethodSplit {
    /**
     * The prologue's question: a public static {@code ()Z} method of the runtime.
     *
     * @param owner  its class, internal name
     * @param name   its name
     * @param marker the name of a public static method of {@code owner} that returns the copy's
     *               marker (always null) on the way to the copy, for a runtime that has work to do
     *               there; null to pass a constant null. The path to the copy never rejoins the
     *               method, so what that method does stays off the path every other frame takes
     */
    record Question(String owner, String name, String marker) {
    }

    /**
     * A split under way: the copy, and where its prologue will ask.
     *
     * @param copy     the method as it was when copied, under the marker parameter
     * @param resume   the point the copy resumes from, or null to ask after the pure prefix
     * @param isStatic whether the method is static
     * @param argSlots slots of its parameters, the receiver included
     */
    record Split(MethodNode copy, ResumePoint resume, boolean isStatic, int argSlots) {
    }

    private MethodSplit() {
    }

    /**
     * Copies {@code mn} for a split, or returns null if it cannot be split: constructors and class
     * initializers, methods of interfaces, abstract and native methods, and methods whose
     * parameters already fill 255 slots.
     *
     * @param cn     the class
     * @param mn     the method, which the caller then rewrites into the serial method
     * @param isSite what counts as a future's declaration, for the {@link ResumePoint}
     * @param marker the copy's extra parameter type
     */
    static Split copy(ClassNode cn, MethodNode mn, Predicate<AbstractInsnNode> isSite, String marker) {
        if (!splittable(cn, mn)) {
            return null;
        }
        boolean isStatic = (mn.access & Opcodes.ACC_STATIC) != 0;
        int argSlots = argSlots(mn);
        ResumePoint resume = ResumePoint.find(cn, mn, argSlots, isSite);
        if (resume != null) {
            mn.instructions.insertBefore(resume.at(), resume.label());
        }
        MethodNode copy = copyWithMarker(mn, argSlots, resume, marker);
        if (resume != null) {
            UnreachableCode.remove(copy);                    // the prefix it jumps over
        }
        return new Split(copy, resume, isStatic, argSlots);
    }

    /**
     * True unless {@code mn} is a constructor or class initializer, a method of an interface, abstract
     * or native, or has parameters that already fill 255 slots (the copy adds one).
     */
    static boolean splittable(ClassNode cn, MethodNode mn) {
        return !mn.name.startsWith("<") && (cn.access & Opcodes.ACC_INTERFACE) == 0 && argSlots(mn) + 1 <= 255
                && (mn.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
    }

    /** Argument slots, counting one for an implicit receiver (which a static method has not). */
    private static int argSlots(MethodNode mn) {
        return (Type.getArgumentsAndReturnSizes(mn.desc) >> 2) - ((mn.access & Opcodes.ACC_STATIC) != 0 ? 1 : 0);
    }

    /** The serial method's prologue, once the caller has rewritten it: asks {@code ask}, and if yes runs the copy. */
    static void addPrologue(ClassNode cn, MethodNode mn, Split split, Question ask) {
        if (split.resume() != null) {
            addResumingPrologue(cn, mn, split.copy(), split.isStatic(), split.resume(), ask);
        } else {
            addPrologue(cn, mn, split.copy(), split.isStatic(), split.argSlots(), ask);
        }
    }

    /**
     * {@code desc} with {@code types} (descriptors) appended to its parameters.
     *
     * @param desc  a method descriptor
     * @param types parameter type descriptors
     * @return the new descriptor
     */
    static String withParams(String desc, String... types) {
        int close = desc.indexOf(')');
        return desc.substring(0, close) + String.join("", types) + desc.substring(close);
    }

    /**
     * The woven body, under the same name, with trailing marker parameters (a null marker, or a
     * worker variant's worker and, for a resume variant, its marking {@code boolean}) from slot
     * {@code argSlots} — and, if the copy resumes at a point past the method's start, the locals
     * live there as further parameters, stored into their slots before a jump to that point.
     */
    static MethodNode copyWithMarker(MethodNode mn, int argSlots, ResumePoint resume, String... markers) {
        Type[] args = Type.getArgumentTypes(mn.desc);
        List<Type> params = new ArrayList<>(Arrays.asList(args));
        int shift = 0;
        for (String marker : markers) {
            params.add(Type.getType(marker));
            shift += Type.getType(marker).getSize();
        }
        if (resume != null) {
            for (ResumePoint.Local x : resume.passed()) {
                params.add(x.type());
                shift += x.type().getSize();
            }
        }
        String desc = Type.getMethodDescriptor(Type.getReturnType(mn.desc), params.toArray(new Type[0]));
        int access = (mn.access & (Opcodes.ACC_STATIC | Opcodes.ACC_STRICT)) | Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;
        String[] exceptions = mn.exceptions == null ? null : mn.exceptions.toArray(new String[0]);
        MethodNode copy = new MethodNode(Opcodes.ASM9, access, mn.name, desc, null, exceptions);
        Map<LabelNode, LabelNode> labels = new HashMap<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof LabelNode l) {
                labels.put(l, new LabelNode());
            }
        }
        if (resume != null) {
            // the resumed locals, from their parameter slots into their own, then on at the point
            int from = argSlots + 1;
            for (ResumePoint.Local x : resume.passed()) {
                copy.instructions.add(new VarInsnNode(x.type().getOpcode(Opcodes.ILOAD), from));
                copy.instructions.add(new VarInsnNode(x.type().getOpcode(Opcodes.ISTORE), x.slot() + shift));
                from += x.type().getSize();
            }
            for (int slot : resume.nulls()) {
                copy.instructions.add(new InsnNode(Opcodes.ACONST_NULL));
                copy.instructions.add(new VarInsnNode(Opcodes.ASTORE, slot + shift));
            }
            copy.instructions.add(new JumpInsnNode(Opcodes.GOTO, labels.get(resume.label())));
        }
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof FrameNode) {
                continue;                                        // frames: recomputed by the writer
            }
            AbstractInsnNode c = i.clone(labels);
            if (c instanceof VarInsnNode v && v.var >= argSlots) {
                v.var += shift;
            } else if (c instanceof IincInsnNode v && v.var >= argSlots) {
                v.var += shift;
            }
            copy.instructions.add(c);
        }
        for (TryCatchBlockNode t : mn.tryCatchBlocks) {
            copy.tryCatchBlocks.add(new TryCatchBlockNode(labels.get(t.start), labels.get(t.end), labels.get(t.handler), t.type));
        }
        if (mn.localVariables != null) {
            copy.localVariables = new ArrayList<>();
            for (LocalVariableNode v : mn.localVariables) {
                copy.localVariables.add(new LocalVariableNode(v.name, v.desc, v.signature, labels.get(v.start), labels.get(v.end),
                        v.index >= argSlots ? v.index + shift : v.index));
            }
        }
        return copy;
    }

    /**
     * {@code if (ask()) return copy(args…, null);} at the method's entry — or just
     * after a leading base case, so that the leaves of a recursion do not ask: past the longest
     * prefix that only reads locals, constants, fields and array elements, writes locals that are
     * not parameters (the woven handles' initialization), computes, compares, branches within
     * itself and returns (fib's {@code if (n < 2) return n;}, a tree walk's
     * {@code if (node == null) return 0;}). The copy runs that prefix again from the same
     * parameters; nothing in it has an effect, and a value it reads again is one the first read
     * could have seen.
     */
    private static void addPrologue(ClassNode cn, MethodNode mn, MethodNode copy, boolean isStatic, int argSlots, Question ask) {
        AbstractInsnNode at = afterPurePrefix(mn, argSlots);
        InsnList p = new InsnList();
        LabelNode start = new LabelNode();
        p.add(start);
        if (at == null) {
            // at the entry no line is in effect yet: the method's first; past a prefix the line in
            // effect stays, so the rest of that statement keeps its own line
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof LineNumberNode ln) {
                    p.add(new LineNumberNode(ln.line, start));
                    break;
                }
            }
        }
        LabelNode end = new LabelNode();
        p.add(askThenRunCopy(cn, mn, copy, isStatic, List.of(), ask));
        p.add(end);
        if (at == null) {
            mn.instructions.insert(p);
        } else {
            mn.instructions.insertBefore(at, p);
        }
        excludeFromHandlers(mn, start, end);
    }

    /**
     * {@code if (ask()) return copy(args…, null, locals…);} at the resume point: the
     * copy goes on from there with this frame's parameters and locals, so what the method did
     * before — whatever it was — is not done again.
     */
    private static void addResumingPrologue(ClassNode cn, MethodNode mn, MethodNode copy, boolean isStatic,
            ResumePoint resume, Question ask) {
        // after the label: it stays where the copy jumps to
        InsnList p = new InsnList();
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        p.add(start);
        p.add(askThenRunCopy(cn, mn, copy, isStatic, resume.passed(), ask));
        p.add(end);
        mn.instructions.insert(resume.label(), p);
        excludeFromHandlers(mn, start, end);
    }

    /**
     * Takes the instructions from {@code from} to {@code to} out of every exception handler's
     * range in {@code mn}: a handler that covered them is split around them, a part with no
     * instruction dropped (the JVM rejects an empty range). For a path that hands the rest of the
     * method to another method (the prologue's call of the copy and its return): that method has
     * the handlers itself, so an
     * exception it lets escape must leave this frame too, not be caught a second time here. A
     * resume point inside a {@code try} block put such a call inside the block's range, and a
     * failure the copy had already left its handler with was handled again in the serial method
     * (found by {@code RandomWovenMethodsTest}). The call of a worker variant that
     * {@link WorkerParameter} later puts after the question lies in the same region.
     *
     * @param mn   the method
     * @param from a label in {@code mn}, before {@code to}
     * @param to   a label in {@code mn}
     */
    static void excludeFromHandlers(MethodNode mn, LabelNode from, LabelNode to) {
        InsnList l = mn.instructions;
        int a = l.indexOf(from);
        int b = l.indexOf(to);
        List<TryCatchBlockNode> kept = new ArrayList<>();
        for (TryCatchBlockNode t : mn.tryCatchBlocks) {
            if (l.indexOf(t.start) >= b || l.indexOf(t.end) <= a) {
                kept.add(t);
                continue;
            }
            // both parts keep the handler's place in the table (inner handlers come first), and
            // its type annotations: ASM numbers them by table index as it writes each entry
            if (UnreachableCode.hasRealInstructionBetween(t.start, from)) {
                kept.add(part(t, t.start, from));
            }
            if (UnreachableCode.hasRealInstructionBetween(to, t.end)) {
                kept.add(part(t, to, t.end));
            }
        }
        mn.tryCatchBlocks.clear();
        mn.tryCatchBlocks.addAll(kept);
    }

    private static TryCatchBlockNode part(TryCatchBlockNode t, LabelNode start, LabelNode end) {
        TryCatchBlockNode p = new TryCatchBlockNode(start, end, t.handler, t.type);
        p.visibleTypeAnnotations = t.visibleTypeAnnotations;
        p.invisibleTypeAnnotations = t.invisibleTypeAnnotations;
        return p;
    }

    /**
     * {@code if (ask()) return copy(args…, null, passed…);}: the parameters from
     * their slots, the null marker, then the passed locals.
     */
    private static InsnList askThenRunCopy(ClassNode cn, MethodNode mn, MethodNode copy, boolean isStatic,
            List<ResumePoint.Local> passed, Question ask) {
        InsnList p = new InsnList();
        LabelNode serial = new LabelNode();
        p.add(new MethodInsnNode(Opcodes.INVOKESTATIC, ask.owner(), ask.name(), "()Z", false));
        p.add(new JumpInsnNode(Opcodes.IFEQ, serial));
        int slot = 0;
        if (!isStatic) {
            p.add(new VarInsnNode(Opcodes.ALOAD, 0));
            slot = 1;
        }
        for (Type t : Type.getArgumentTypes(mn.desc)) {
            p.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), slot));
            slot += t.getSize();
        }
        if (ask.marker() == null) {
            p.add(new InsnNode(Opcodes.ACONST_NULL));
        } else {
            String markerType = Type.getArgumentTypes(copy.desc)[Type.getArgumentTypes(mn.desc).length].getDescriptor();
            p.add(new MethodInsnNode(Opcodes.INVOKESTATIC, ask.owner(), ask.marker(), "()" + markerType, false));
        }
        for (ResumePoint.Local x : passed) {
            p.add(new VarInsnNode(x.type().getOpcode(Opcodes.ILOAD), x.slot()));
        }
        p.add(new MethodInsnNode(isStatic ? Opcodes.INVOKESTATIC : Opcodes.INVOKESPECIAL, cn.name, copy.name, copy.desc, false));
        p.add(new InsnNode(Type.getReturnType(mn.desc).getOpcode(Opcodes.IRETURN)));
        p.add(serial);
        return p;
    }

    /**
     * True if running {@code i} twice from the same parameters has no effect the second run could
     * add: it reads locals, constants, fields and array elements (their values are recomputed),
     * writes a local that is not a parameter, computes, compares or returns. Branches are the
     * caller's to check.
     *
     * @param i        the instruction
     * @param argSlots the parameters' slots, the receiver included
     */
    static boolean isPure(AbstractInsnNode i, int argSlots) {
        int op = i.getOpcode();
        return op >= Opcodes.ACONST_NULL && op <= Opcodes.LDC                 // constants
                || op >= Opcodes.ILOAD && op <= Opcodes.ALOAD                            // any local
                || op >= Opcodes.ISTORE && op <= Opcodes.ASTORE && ((VarInsnNode) i).var >= argSlots
                || op == Opcodes.IINC && ((IincInsnNode) i).var >= argSlots
                || op >= Opcodes.IADD && op <= Opcodes.LXOR                            // arithmetic
                || op >= Opcodes.I2L && op <= Opcodes.DCMPG                            // conversions, compares
                || op >= Opcodes.IALOAD && op <= Opcodes.SALOAD                         // reads: their values
                || op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC || op == Opcodes.ARRAYLENGTH // are recomputed
                || op == Opcodes.INSTANCEOF || op == Opcodes.CHECKCAST                  // by the copy
                || op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
    }

    /**
     * The first instruction after the method's pure prefix (see {@link #addPrologue}), or null to
     * ask at the entry: the prefix must contain a return, and its branches must stay inside it.
     */
    private static AbstractInsnNode afterPurePrefix(MethodNode mn, int argSlots) {
        InsnList l = mn.instructions;
        AbstractInsnNode end = null;
        boolean returns = false;
        List<LabelNode> targets = new ArrayList<>();
        for (AbstractInsnNode i = l.getFirst(); i != null; i = i.getNext()) {
            int op = i.getOpcode();
            if (op < 0) {
                continue;                                              // labels, lines, frames
            }
            boolean pure = isPure(i, argSlots);
            if (i instanceof JumpInsnNode j && op != Opcodes.JSR) {
                targets.add(j.label);
                pure = true;
            }
            if (!pure) {
                end = i;
                break;
            }
            returns |= op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
        }
        if (end == null || !returns) {
            return null;
        }
        int limit = l.indexOf(end);
        for (LabelNode t : targets) {
            if (l.indexOf(t) > limit) {
                return null;                                           // a branch skips the point
            }
        }
        // right before the first impure instruction, after any label in front of it: the
        // prefix's branches to those labels reach the prologue
        return end;
    }
}
