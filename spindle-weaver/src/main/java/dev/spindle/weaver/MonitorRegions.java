package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which instructions of a method may run while it holds a monitor it entered with
 * {@code monitorenter} (a synchronized block): a forward data flow of the monitor depth over the
 * control-flow graph, exception edges included, merging by maximum.
 */
final class MonitorRegions {
    private static final int CAP = 16;
    private final int[] depth;

    private MonitorRegions(int[] depth) {
        this.depth = depth;
    }

    static MonitorRegions of(MethodNode mn) {
        AbstractInsnNode[] insns = mn.instructions.toArray();
        int n = insns.length;
        int[] depth = new int[n];
        Arrays.fill(depth, -1);
        boolean any = false;
        for (AbstractInsnNode i : insns) {
            any |= i.getOpcode() == Opcodes.MONITORENTER;
        }
        if (!any || n == 0) {
            Arrays.fill(depth, 0);
            return new MonitorRegions(depth);
        }
        ArrayDeque<Integer> work = new ArrayDeque<>();
        depth[0] = 0;
        work.add(0);
        while (!work.isEmpty()) {
            int p = work.poll();
            AbstractInsnNode insn = insns[p];
            int d = depth[p];
            int out = d;
            if (insn.getOpcode() == Opcodes.MONITORENTER) {
                out = Math.min(CAP, d + 1);
            } else if (insn.getOpcode() == Opcodes.MONITOREXIT) {
                out = Math.max(0, d - 1);
            }
            for (int s : successors(mn, insns, p)) {
                if (depth[s] < out) {
                    depth[s] = out;
                    work.add(s);
                }
            }
            for (TryCatchBlockNode t : mn.tryCatchBlocks) {
                int a = mn.instructions.indexOf(t.start);
                int b = mn.instructions.indexOf(t.end);
                if (p >= a && p < b) {
                    int h = mn.instructions.indexOf(t.handler);
                    if (depth[h] < d) {
                        depth[h] = d;
                        work.add(h);
                    }
                }
            }
        }
        return new MonitorRegions(depth);
    }

    private static List<Integer> successors(MethodNode mn, AbstractInsnNode[] insns, int p) {
        List<Integer> s = new ArrayList<>(2);
        AbstractInsnNode insn = insns[p];
        int op = insn.getOpcode();
        if (insn instanceof JumpInsnNode j) {
            s.add(mn.instructions.indexOf(j.label));
            if (op == Opcodes.GOTO) {
                return s;
            }
        } else if (insn instanceof TableSwitchInsnNode t) {
            s.add(mn.instructions.indexOf(t.dflt));
            for (LabelNode l : t.labels) {
                s.add(mn.instructions.indexOf(l));
            }
            return s;
        } else if (insn instanceof LookupSwitchInsnNode t) {
            s.add(mn.instructions.indexOf(t.dflt));
            for (LabelNode l : t.labels) {
                s.add(mn.instructions.indexOf(l));
            }
            return s;
        } else if (op == Opcodes.ATHROW || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) {
            return s;
        }
        if (p + 1 < insns.length) {
            s.add(p + 1);
        }
        return s;
    }

    /** True if the instruction may run while a monitor entered in this method is held. */
    boolean holdsMonitor(MethodNode mn, AbstractInsnNode insn) {
        int p = mn.instructions.indexOf(insn);
        return depth[p] > 0;
    }
}
