package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tests a recursive method's base case at its calls: where a woven static method begins with a
 * short prefix that can neither throw nor have an effect and that returns on some path — fib's
 * {@code if (n < 2) return n;}, a tree walk's {@code if (node == null) return 0;} — each call to
 * it from woven code evaluates that prefix first, on the arguments kept in fresh locals, and makes
 * the call only when the prefix falls through. The callee then runs its prefix again, which gives
 * the same answer, so the result, the effects and every exception are those of the call as
 * written. What changes: a leaf call costs no frame (half of a binary recursion's calls are
 * leaves), and a debugger stepping into such a call finds no frame to step into.
 *
 * <p>Why: C2 inlines a recursive method into itself to a fixed depth, so which calls of a
 * recursion cost a real frame depends on the depth the walk began at; the leaves' frames are
 * what that lottery prices (PERFORMANCE.md, futures suite, "Thirty-third session"). The sequential
 * code a benchmark compares with is left as written.
 *
 * <p>The prefix is read from the method as compiled, before weaving changes it: instructions that
 * cannot throw (locals, constants, arithmetic but integer division, compares, branches, returns,
 * this class's own static fields), ending where the operand stack is empty before the first other
 * instruction, with every branch inside it and going forward, at most {@value #MAX_INSTRUCTIONS}
 * instructions.
 * Synchronized methods, instance methods (a call dispatches and null-checks its receiver) and
 * constructors (as callers) are left alone.
 */
final class BaseCaseAtCall {
    /** The most instructions a prefix may have: a base case, not a method body. */
    static final int MAX_INSTRUCTIONS = 16;

    private BaseCaseAtCall() {
    }

    /** A static method's base case: its first instructions, their labels its own. */
    record Prefix(String name, String desc, int maxLocals, InsnList code) {
    }

    /**
     * The base case of {@code mn} as it stands (call before weaving changes it), or null if it has
     * none this rewrite may copy.
     */
    static Prefix of(ClassNode cn, MethodNode mn) {
        if ((mn.access & (Opcodes.ACC_STATIC | Opcodes.ACC_SYNCHRONIZED | Opcodes.ACC_NATIVE | Opcodes.ACC_ABSTRACT))
                != Opcodes.ACC_STATIC || mn.instructions.size() == 0) {
            return null;
        }
        Frame<BasicValue>[] frames;
        try {
            frames = new Analyzer<>(new BasicInterpreter()).analyze(cn.name, mn);
        } catch (AnalyzerException e) {
            return null;
        }
        InsnList l = mn.instructions;
        int end = -1;                                  // index of the first instruction after the prefix
        int candidate = -1;                            // the latest real instruction entered with an empty stack
        int real = 0;
        for (int i = 0; i < l.size(); i++) {
            AbstractInsnNode x = l.get(i);
            if (x.getOpcode() < 0) {
                continue;
            }
            if (frames[i] != null && frames[i].getStackSize() == 0) {
                candidate = i;
            }
            if (!cannotThrowNorAct(cn, x) || ++real > MAX_INSTRUCTIONS) {
                end = candidate;
                break;
            }
        }
        if (end <= 0) {
            return null;                               // the whole method, or nothing, is the prefix
        }
        boolean returns = false;
        for (int i = 0; i < end; i++) {
            AbstractInsnNode x = l.get(i);
            returns |= x.getOpcode() >= Opcodes.IRETURN && x.getOpcode() <= Opcodes.RETURN;
            if (x instanceof JumpInsnNode j && (l.indexOf(j.label) > end || l.indexOf(j.label) < i)) {
                // a branch that leaves the prefix, or one that goes back: copied to a call made
                // while `new T(call(…))` has its uninitialized object on the stack, a backward
                // branch is one no verifier need accept
                return null;
            }
        }
        if (!returns) {
            return null;
        }
        Map<LabelNode, LabelNode> labels = new HashMap<>();
        for (int i = 0; i < end; i++) {
            if (l.get(i) instanceof LabelNode ln) {
                labels.put(ln, new LabelNode());
            }
        }
        InsnList code = new InsnList();
        for (int i = 0; i < end; i++) {
            AbstractInsnNode x = l.get(i);
            if (x.getType() == AbstractInsnNode.LINE || x.getType() == AbstractInsnNode.FRAME) {
                continue;                              // the caller's line stays in effect
            }
            code.add(x.clone(labels));
        }
        return new Prefix(mn.name, mn.desc, mn.maxLocals, code);
    }

    private static boolean cannotThrowNorAct(ClassNode cn, AbstractInsnNode x) {
        int op = x.getOpcode();
        if (x instanceof LdcInsnNode ldc) {
            Object c = ldc.cst;                        // a class or dynamic constant may load a class
            return c instanceof Integer || c instanceof Float || c instanceof Long || c instanceof Double
                    || c instanceof String;
        }
        if (op == Opcodes.IDIV || op == Opcodes.LDIV || op == Opcodes.IREM || op == Opcodes.LREM) {
            return false;                              // ArithmeticException
        }
        if (op == Opcodes.GETSTATIC) {
            return ((FieldInsnNode) x).owner.equals(cn.name);   // initialized: its method is running
        }
        return op >= Opcodes.ACONST_NULL && op <= Opcodes.SIPUSH
                || op >= Opcodes.ILOAD && op <= Opcodes.ALOAD
                || op >= Opcodes.ISTORE && op <= Opcodes.ASTORE
                || op == Opcodes.IINC
                || op >= Opcodes.IADD && op <= Opcodes.LXOR
                || op >= Opcodes.I2L && op <= Opcodes.DCMPG
                || x instanceof JumpInsnNode && op != Opcodes.JSR
                || op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
    }

    /**
     * Rewrites {@code caller}'s calls to the methods of {@code prefixes} (of class {@code owner}).
     *
     * @return the number of calls rewritten
     */
    static int rewrite(String owner, MethodNode caller, List<Prefix> prefixes) {
        if (prefixes.isEmpty() || caller.name.equals("<init>") || caller.instructions.size() == 0) {
            return 0;
        }
        List<MethodInsnNode> calls = new ArrayList<>();
        List<Prefix> of = new ArrayList<>();
        for (AbstractInsnNode x = caller.instructions.getFirst(); x != null; x = x.getNext()) {
            if (x instanceof MethodInsnNode m && m.getOpcode() == Opcodes.INVOKESTATIC && m.owner.equals(owner)) {
                for (Prefix p : prefixes) {
                    if (p.name.equals(m.name) && p.desc.equals(m.desc)) {
                        calls.add(m);
                        of.add(p);
                    }
                }
            }
        }
        if (calls.isEmpty()) {
            return 0;
        }
        int base = LocalSlots.firstFree(caller);
        int needed = base;
        for (int c = 0; c < calls.size(); c++) {
            Prefix p = of.get(c);
            caller.instructions.insertBefore(calls.get(c), prefixThenCall(p, base, calls.get(c), caller));
            needed = Math.max(needed, base + p.maxLocals);
        }
        caller.maxLocals = Math.max(caller.maxLocals, needed);
        return calls.size();
    }

    /**
     * Before {@code call}: the arguments into slots from {@code base}, the prefix on them with a
     * return turned into a jump past the call (its value on the stack), then the arguments back.
     */
    private static InsnList prefixThenCall(Prefix p, int base, MethodInsnNode call, MethodNode caller) {
        InsnList s = new InsnList();
        Type[] args = Type.getArgumentTypes(p.desc);
        int[] slots = new int[args.length];
        for (int a = 0, slot = 0; a < args.length; slot += args[a].getSize(), a++) {
            slots[a] = base + slot;
        }
        for (int a = args.length - 1; a >= 0; a--) {
            s.add(new VarInsnNode(args[a].getOpcode(Opcodes.ISTORE), slots[a]));
        }
        LabelNode done = new LabelNode();
        Map<LabelNode, LabelNode> labels = new HashMap<>();
        for (AbstractInsnNode x = p.code.getFirst(); x != null; x = x.getNext()) {
            if (x instanceof LabelNode ln) {
                labels.put(ln, new LabelNode());
            }
        }
        for (AbstractInsnNode x = p.code.getFirst(); x != null; x = x.getNext()) {
            int op = x.getOpcode();
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                s.add(new JumpInsnNode(Opcodes.GOTO, done));
                continue;
            }
            AbstractInsnNode c = x.clone(labels);
            if (c instanceof VarInsnNode v) {
                v.var += base;
            } else if (c instanceof IincInsnNode v) {
                v.var += base;
            }
            s.add(c);
        }
        for (int a = 0; a < args.length; a++) {
            s.add(new VarInsnNode(args[a].getOpcode(Opcodes.ILOAD), slots[a]));
        }
        // the call itself stays where it is; the prefix's returns land just after it
        caller.instructions.insert(call, done);
        return s;
    }
}
