package dev.spindle.weaver;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.HashSet;
import java.util.Set;

/**
 * The method a lambda or method reference stands for, where the serial method can call it
 * directly instead of creating the lambda and calling its interface method
 * ({@link SerialFutureSplit}): javac's {@code invokedynamic} to {@code LambdaMetafactory.metafactory}
 * whose implementation is a static method, or an instance method of the class itself with the
 * receiver captured first ({@code this} in a lambda that uses it), and whose parameters are exactly
 * the captured values followed by the interface method's parameters (a reference type where the
 * interface method's is one: the call casts to it, as the lambda's class does), its result the
 * interface method's (any reference type where that is a reference). Anything else — boxing or widening
 * adaptations, {@code altMetafactory} (serializable lambdas), constructor and interface-dispatched
 * references — keeps the interface call.
 *
 * <p>Calling it directly is what the lambda's generated class would do, minus the object: a
 * capturing lambda is then never allocated, whatever C2 decides about the JDK's code that links
 * and allocates it.
 *
 * @param opcode   {@code INVOKESTATIC}, {@code INVOKESPECIAL} or {@code INVOKEVIRTUAL}
 * @param owner    the implementation's class
 * @param name     its name
 * @param desc     its descriptor
 * @param itf      whether its owner is an interface
 * @param captured the captured values' types, the receiver first for an instance method
 */
record LambdaTarget(int opcode, String owner, String name, String desc, boolean itf, Type[] captured) {

    private static final String METAFACTORY = "java/lang/invoke/LambdaMetafactory";

    /**
     * The implementation {@code indy} creates a lambda of, if the serial method may call it in its
     * place, else null.
     *
     * @param cn   the class whose method holds {@code indy}
     * @param indy an {@code invokedynamic}
     * @param sam  the interface method's descriptor the future's body is called through
     */
    static LambdaTarget of(ClassNode cn, InvokeDynamicInsnNode indy, String sam) {
        Handle bsm = indy.bsm;
        if (!bsm.getOwner().equals(METAFACTORY) || !bsm.getName().equals("metafactory") || indy.bsmArgs.length < 3
                || !(indy.bsmArgs[0] instanceof Type erased) || !(indy.bsmArgs[1] instanceof Handle impl)
                || !erased.getDescriptor().equals(sam)) {
            return null;
        }
        Type[] captured = Type.getArgumentTypes(indy.desc);
        Type[] samArgs = Type.getArgumentTypes(sam);
        Type samReturn = Type.getReturnType(sam);
        Type[] implArgs = Type.getArgumentTypes(impl.getDesc());
        Type implReturn = Type.getReturnType(impl.getDesc());
        int opcode;
        int receiver;
        switch (impl.getTag()) {
            case Opcodes.H_INVOKESTATIC -> {
                opcode = Opcodes.INVOKESTATIC;
                receiver = 0;
            }
            case Opcodes.H_INVOKESPECIAL, Opcodes.H_INVOKEVIRTUAL -> {
                if (!impl.getOwner().equals(cn.name) || captured.length == 0
                        || !captured[0].equals(Type.getObjectType(cn.name))) {
                    return null;                                  // only a lambda of this class on its own receiver
                }
                opcode = impl.getTag() == Opcodes.H_INVOKESPECIAL ? Opcodes.INVOKESPECIAL : Opcodes.INVOKEVIRTUAL;
                receiver = 1;
            }
            default -> {
                return null;
            }
        }
        if (implArgs.length != captured.length - receiver + samArgs.length) {
            return null;
        }
        for (int k = receiver; k < captured.length; k++) {
            if (!implArgs[k - receiver].equals(captured[k])) {
                return null;
            }
        }
        for (int k = 0; k < samArgs.length; k++) {
            Type a = implArgs[captured.length - receiver + k];
            boolean cast = samArgs[k].getSort() == Type.OBJECT && (a.getSort() == Type.OBJECT || a.getSort() == Type.ARRAY);
            if (!a.equals(samArgs[k]) && !cast) {
                return null;                                      // a reference parameter gets a checkcast, as the lambda's class does
            }
        }
        boolean returns = samReturn.getSort() == Type.OBJECT
                ? implReturn.getSort() == Type.OBJECT || implReturn.getSort() == Type.ARRAY
                : implReturn.equals(samReturn);
        if (!returns) {
            return null;
        }
        return new LambdaTarget(opcode, impl.getOwner(), impl.getName(), impl.getDesc(), impl.isInterface(), captured);
    }

    /**
     * The implementation's parameter {@code k} past the captured values: the type an argument is
     * cast to if it is a reference.
     */
    Type parameter(int k) {
        int receiver = opcode == Opcodes.INVOKESTATIC ? 0 : 1;
        return Type.getArgumentTypes(desc)[captured.length - receiver + k];
    }

    /** The call of the implementation, its captured values and arguments already on the stack. */
    MethodInsnNode call() {
        return new MethodInsnNode(opcode, owner, name, desc, itf);
    }

    /**
     * The {@code invokedynamic} right before {@code site} — nothing but line numbers and labels no
     * branch or handler uses between them — or null.
     *
     * @param site       a factory call
     * @param usedLabels labels some branch, switch or exception handler refers to
     */
    static InvokeDynamicInsnNode indyRightBefore(AbstractInsnNode site, Set<LabelNode> usedLabels) {
        for (AbstractInsnNode i = site.getPrevious(); i != null; i = i.getPrevious()) {
            if (i instanceof InvokeDynamicInsnNode indy) {
                return indy;
            }
            if (!(i instanceof LineNumberNode) && !(i instanceof LabelNode l && !usedLabels.contains(l))) {
                return null;
            }
        }
        return null;
    }

    /** Labels that branches, switches and exception handlers of {@code mn} refer to. */
    static Set<LabelNode> usedLabels(MethodNode mn) {
        Set<LabelNode> used = new HashSet<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            used.addAll(MethodWeaver.targets(i));
        }
        for (var t : mn.tryCatchBlocks) {
            used.add(t.start);
            used.add(t.end);
            used.add(t.handler);
        }
        return used;
    }
}
