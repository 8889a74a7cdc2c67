package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * A data-flow interpreter that keeps each reference's declared type — the type of the parameter,
 * field, method result, cast or array element it came from — with no class hierarchy: where two
 * different reference types meet, the value is {@link #UNKNOWN}, and a {@code null} constant is
 * {@link #NULL} until it meets a typed reference. Enough to give a local that javac wrote one
 * exact type at a given point, without loading a class.
 */
final class ExactTypeInterpreter extends BasicInterpreter {
    /** The {@code null} constant, not yet merged with a typed reference. */
    static final BasicValue NULL = new BasicValue(Type.getObjectType("spindle/weaver/null"));
    /** A reference whose paths disagree on its type. */
    static final BasicValue UNKNOWN = new BasicValue(Type.getObjectType("spindle/weaver/unknown"));

    ExactTypeInterpreter() {
        super(Opcodes.ASM9);
    }

    @Override
    public BasicValue newValue(Type type) {
        if (type != null && (type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY)) {
            return new BasicValue(type);
        }
        return super.newValue(type);
    }

    @Override
    public BasicValue newOperation(AbstractInsnNode insn) throws AnalyzerException {
        return insn.getOpcode() == Opcodes.ACONST_NULL ? NULL : super.newOperation(insn);
    }

    @Override
    public BasicValue binaryOperation(AbstractInsnNode insn, BasicValue array, BasicValue index) throws AnalyzerException {
        if (insn.getOpcode() == Opcodes.AALOAD && array.getType() != null && array.getType().getSort() == Type.ARRAY) {
            return newValue(Type.getType(array.getType().getDescriptor().substring(1)));
        }
        if (insn.getOpcode() == Opcodes.AALOAD) {
            return UNKNOWN;
        }
        return super.binaryOperation(insn, array, index);
    }

    @Override
    public BasicValue merge(BasicValue a, BasicValue b) {
        if (a.equals(b)) {
            return a;
        }
        if (a.isReference() && b.isReference()) {
            if (a == NULL) {
                return b;
            }
            return b == NULL ? a : UNKNOWN;
        }
        return BasicValue.UNINITIALIZED_VALUE;
    }
}
