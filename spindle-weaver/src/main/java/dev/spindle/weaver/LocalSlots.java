package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The local-variable slots a method's code uses, read from its instructions: a woven method's
 * {@code maxLocals} may be stale (the writer recomputes it), and a pass that needs fresh slots or
 * a frame analysis needs the real extent.
 */
final class LocalSlots {
    private LocalSlots() {
    }

    /**
     * The first slot past every local an instruction of {@code mn} loads, stores or increments
     * (a long or double takes two), at least {@code mn.maxLocals}.
     *
     * @param mn the method
     * @return the slot count
     */
    static int end(MethodNode mn) {
        int end = mn.maxLocals;
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i instanceof VarInsnNode v) {
                int op = v.getOpcode();
                int size = op == Opcodes.LLOAD || op == Opcodes.DLOAD || op == Opcodes.LSTORE || op == Opcodes.DSTORE ? 2 : 1;
                end = Math.max(end, v.var + size);
            } else if (i instanceof IincInsnNode v) {
                end = Math.max(end, v.var + 1);
            }
        }
        return end;
    }
}
