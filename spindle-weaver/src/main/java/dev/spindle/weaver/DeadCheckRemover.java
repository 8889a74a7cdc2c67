package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last step of weaving a method: removes the checks {@link MethodWeaver} emitted that can
 * never fire, so the woven method stays close to the original's size (C2 decides what to inline
 * from bytecode size: a woven Knapsack {@code search} of 243 bytes stopped being inlined into its
 * caller, where the original's 70 bytes were).
 *
 * <p>The emitted code guards every touch and settle with {@code aload handle; ifnull skip} and
 * every normal exit with {@code aload pending; invokestatic throwIfFailed}. A forward may-analysis
 * over the woven method tracks, for each of those locals, whether it may hold a non-null value:
 * {@code aconst_null; astore} clears it, any other store sets it, the taken edge of
 * {@code aload x; ifnull} clears it (and its fall-through edge is dead when x is null on every
 * path there), exception handlers start from the union of their range. A
 * guard whose local is null on every path that reaches it is deleted — for example the settles at
 * a return that precedes every declaration, or after the variable's first read, and the
 * {@code throwIfFailed} of a method in which no settle can have run. The catch-all handler keeps
 * its settles (an exception can leave from anywhere in the range).
 */
final class DeadCheckRemover {
    /** A guarded block: {@code aload local; ifnull skip; ...; skip:}. */
    record Guard(VarInsnNode load, LabelNode skip) {
    }

    /** A normal exit's {@code aload pending; invokestatic throwIfFailed}. */
    record ExitCheck(VarInsnNode load, AbstractInsnNode call) {
    }

    private final MethodNode mn;
    private final int[] tracked;
    private final List<Guard> guards;
    private final List<ExitCheck> exits;

    /**
     * @param mn      the woven method
     * @param tracked the locals the checks read (handles and the pending failure); the original
     *                code never uses them
     * @param guards  the emitted guards
     * @param exits   the emitted exit checks
     */
    DeadCheckRemover(MethodNode mn, int[] tracked, List<Guard> guards, List<ExitCheck> exits) {
        this.mn = mn;
        this.tracked = tracked;
        this.guards = guards;
        this.exits = exits;
    }

    /**
     * Analyses and removes.
     *
     * @return the number of checks removed
     */
    int run() {
        InsnList insns = mn.instructions;
        int n = insns.size();
        Map<AbstractInsnNode, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(insns.get(i), i);
        }
        Map<Integer, Integer> bit = new java.util.HashMap<>();
        for (int k = 0; k < tracked.length; k++) {
            bit.put(tracked[k], k);
        }
        BitSet[] in = new BitSet[n];
        ArrayDeque<Integer> work = new ArrayDeque<>();
        in[0] = new BitSet();                          // the locals start unset: the entry stores null first
        work.add(0);
        List<List<Integer>> handlersOf = handlerTargets(index, n);
        while (!work.isEmpty()) {
            int i = work.poll();
            AbstractInsnNode insn = insns.get(i);
            BitSet out = (BitSet) in[i].clone();
            BitSet taken = null;
            boolean fallsIntoDeadBlock = false;
            if (insn instanceof VarInsnNode v && v.getOpcode() == Opcodes.ASTORE && bit.containsKey(v.var)) {
                AbstractInsnNode prev = v.getPrevious();
                out.set(bit.get(v.var), !(prev != null && prev.getOpcode() == Opcodes.ACONST_NULL));
            } else if (insn instanceof JumpInsnNode j && j.getOpcode() == Opcodes.IFNULL
                    && j.getPrevious() instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD && bit.containsKey(v.var)) {
                taken = (BitSet) out.clone();
                taken.clear(bit.get(v.var));
                fallsIntoDeadBlock = !out.get(bit.get(v.var));   // null on every path: never falls through
            }
            for (int h : handlersOf.get(i)) {
                BitSet both = (BitSet) in[i].clone();
                both.or(out);                          // before or after this instruction's store
                flow(in, work, h, both);
            }
            for (int s : successors(insn, i, n, index)) {
                boolean viaJump = insn instanceof JumpInsnNode j && index.get(j.label) == s && s != i + 1;
                if (!viaJump && fallsIntoDeadBlock) {
                    continue;
                }
                flow(in, work, s, viaJump && taken != null ? taken : out);
            }
        }
        int removed = 0;
        for (Guard g : guards) {
            Integer at = index.get(g.load());
            if (at != null && in[at] != null && !in[at].get(bit.get(g.load().var))) {
                AbstractInsnNode x = g.load();
                while (x != g.skip()) {
                    AbstractInsnNode next = x.getNext();
                    insns.remove(x);
                    x = next;
                }
                removed++;
            }
        }
        for (ExitCheck e : exits) {
            Integer at = index.get(e.load());
            if (at != null && in[at] != null && !in[at].get(bit.get(e.load().var))) {
                insns.remove(e.load());
                insns.remove(e.call());
                removed++;
            }
        }
        return removed;
    }

    private static void flow(BitSet[] in, ArrayDeque<Integer> work, int to, BitSet state) {
        if (in[to] == null) {
            in[to] = (BitSet) state.clone();
            work.add(to);
        } else {
            BitSet merged = (BitSet) in[to].clone();
            merged.or(state);
            if (!merged.equals(in[to])) {
                in[to] = merged;
                work.add(to);
            }
        }
    }

    /** For each instruction, the handlers whose range covers it. */
    private List<List<Integer>> handlerTargets(Map<AbstractInsnNode, Integer> index, int n) {
        List<List<Integer>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new ArrayList<>(2));
        }
        for (TryCatchBlockNode t : mn.tryCatchBlocks) {
            int from = index.get(t.start);
            int to = index.get(t.end);
            int h = index.get(t.handler);
            for (int i = from; i < to; i++) {
                out.get(i).add(h);
            }
        }
        return out;
    }

    /** Indexes of the instructions control may go to from {@code insn} at index {@code i} (exception edges apart). */
    static List<Integer> successors(AbstractInsnNode insn, int i, int n, Map<AbstractInsnNode, Integer> index) {
        List<Integer> s = new ArrayList<>(2);
        int op = insn.getOpcode();
        if (insn instanceof JumpInsnNode j) {
            s.add(index.get(j.label));
            if (op != Opcodes.GOTO && op != Opcodes.JSR && i + 1 < n) {
                s.add(i + 1);
            }
        } else if (insn instanceof TableSwitchInsnNode t) {
            s.add(index.get(t.dflt));
            t.labels.forEach(l -> s.add(index.get(l)));
        } else if (insn instanceof LookupSwitchInsnNode t) {
            s.add(index.get(t.dflt));
            t.labels.forEach(l -> s.add(index.get(l)));
        } else if (op == Opcodes.ATHROW || op == Opcodes.RET || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) {
            return s;
        } else if (i + 1 < n) {
            s.add(i + 1);
        }
        return s;
    }
}
