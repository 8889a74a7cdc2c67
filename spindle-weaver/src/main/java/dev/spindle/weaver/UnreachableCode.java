package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Deletes the instructions no path reaches, the try blocks left with nothing to protect, and a
 * {@code goto} to the very next instruction. ASM's frame computation keeps dead code as
 * {@code nop}s ending in {@code athrow}, which still count toward the bytecode size C2 inlines
 * by; the split's serial method has a whole deferral path made dead by {@link DeferringSplit}.
 */
final class UnreachableCode {
    private UnreachableCode() {
    }

    /**
     * Removes the dead code of {@code mn}, until none is left: a try block dropped for an empty
     * range may leave its handler dead.
     *
     * @return the number of instructions removed
     */
    static int remove(MethodNode mn) {
        int removed = 0;
        int tryBlocks;
        int pass;
        do {
            tryBlocks = mn.tryCatchBlocks.size();
            pass = removeOnce(mn);
            removed += pass;
        } while (mn.tryCatchBlocks.size() < tryBlocks);
        if (removed > 0) {
            dropEmptyDebugInfo(mn);
        }
        return removed;
    }

    /**
     * One pass: the instructions no path reaches, then each {@code goto} to the very next
     * instruction, then the try blocks whose range holds no instruction any more — last, because
     * such a {@code goto} may be all a range held (an empty branch in a {@code try}; the JVM
     * rejects an empty range: "Illegal exception table range", found by {@code RandomWovenMethodsTest}).
     */
    private static int removeOnce(MethodNode mn) {
        InsnList l = mn.instructions;
        int n = l.size();
        Map<AbstractInsnNode, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(l.get(i), i);
        }
        BitSet reached = new BitSet(n);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        if (n > 0) {
            reached.set(0);
            work.add(0);
        }
        boolean more = true;
        while (more) {
            while (!work.isEmpty()) {
                int i = work.poll();
                for (int s : DeadCheckRemover.successors(l.get(i), i, n, index)) {
                    if (!reached.get(s)) {
                        reached.set(s);
                        work.add(s);
                    }
                }
            }
            more = false;
            for (TryCatchBlockNode t : mn.tryCatchBlocks) {
                int h = index.get(t.handler);
                int from = index.get(t.start);
                int to = index.get(t.end);
                if (!reached.get(h) && hasRealInstruction(l, reached, from, to)) {
                    reached.set(h);
                    work.add(h);
                    more = true;
                }
            }
        }
        int removed = 0;
        AbstractInsnNode[] all = l.toArray();
        for (int i = 0; i < n; i++) {
            AbstractInsnNode x = all[i];
            if (!reached.get(i) && x.getOpcode() >= 0) {
                l.remove(x);
                removed++;
            }
        }
        for (AbstractInsnNode x = l.getFirst(); x != null; ) {
            AbstractInsnNode next = x.getNext();
            if (x.getOpcode() == Opcodes.GOTO && nextReal(x) == nextReal(((JumpInsnNode) x).label)) {
                l.remove(x);
                removed++;
            }
            x = next;
        }
        mn.tryCatchBlocks.removeIf(t -> !hasRealInstructionBetween(t.start, t.end));
        return removed;
    }

    /**
     * Debug entries the removal emptied: a line number with no instruction after it (its pc would
     * be the code's end), and a local variable whose range holds no instruction or repeats another
     * entry (ranges that covered removed code collapse onto each other); the JVM rejects both. A
     * line number that another one follows before any instruction names no code any more, and goes
     * too.
     */
    private static void dropEmptyDebugInfo(MethodNode mn) {
        for (AbstractInsnNode x = mn.instructions.getLast(); x != null && x.getOpcode() < 0; ) {
            AbstractInsnNode prev = x.getPrevious();
            if (x instanceof LineNumberNode) {
                mn.instructions.remove(x);
            }
            x = prev;
        }
        LineNumberNode pending = null;
        for (AbstractInsnNode x = mn.instructions.getFirst(); x != null; x = x.getNext()) {
            if (x instanceof LineNumberNode line) {
                if (pending != null) {
                    mn.instructions.remove(pending);
                }
                pending = line;
            } else if (x.getOpcode() >= 0) {
                pending = null;
            }
        }
        if (mn.localVariables == null) {
            return;
        }
        Map<AbstractInsnNode, Integer> pc = new IdentityHashMap<>();
        int real = 0;
        for (AbstractInsnNode x = mn.instructions.getFirst(); x != null; x = x.getNext()) {
            pc.put(x, real);
            if (x.getOpcode() >= 0) {
                real++;
            }
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        mn.localVariables.removeIf(v -> {
            Integer from = pc.get(v.start);
            Integer to = pc.get(v.end);
            return from == null || to == null || from >= to
                    || !seen.add(v.name + ' ' + v.desc + ' ' + v.index + ' ' + from + ' ' + to);
        });
    }

    private static boolean hasRealInstruction(InsnList l, BitSet reached, int from, int to) {
        for (int i = reached.nextSetBit(from); i >= 0 && i < to; i = reached.nextSetBit(i + 1)) {
            if (l.get(i).getOpcode() >= 0) {
                return true;
            }
        }
        return false;
    }

    /** True if an instruction (not a label, line number or frame) lies between the two labels. */
    static boolean hasRealInstructionBetween(LabelNode start, LabelNode end) {
        for (AbstractInsnNode x = start; x != null && x != end; x = x.getNext()) {
            if (x.getOpcode() >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The first instruction at or after {@code x} that is not a label, line number or frame. */
    private static AbstractInsnNode nextReal(AbstractInsnNode x) {
        AbstractInsnNode y = x instanceof JumpInsnNode ? x.getNext() : x;
        while (y != null && y.getOpcode() < 0) {
            y = y.getNext();
        }
        return y;
    }
}
