package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LocalVariableNode;
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

    /**
     * The first slot that no instruction, parameter or declared variable of {@code mn} uses: where a
     * pass may put locals of its own.
     *
     * @param mn the method
     * @return the slot
     */
    static int firstFree(MethodNode mn) {
        int free = Math.max(end(mn), Type.getArgumentsAndReturnSizes(mn.desc) >> 2);
        if (mn.localVariables != null) {
            for (LocalVariableNode v : mn.localVariables) {
                free = Math.max(free, v.index + Type.getType(v.desc).getSize());
            }
        }
        return free;
    }
}
