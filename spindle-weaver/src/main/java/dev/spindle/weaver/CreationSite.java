package dev.spindle.weaver;

import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.List;

/**
 * One potential future: {@code x = call(args)} on a {@code @Future} variable, as javac compiled it
 * — the call, then conversions of its result (checkcast, widening, boxing or unboxing), then the
 * store into the variable.
 *
 * @param call      the method invocation
 * @param postOps   checkcast / primitive conversion / box / unbox instructions after it, in order
 * @param store     the store into the variable
 * @param valueType the type of the stored value
 * @param pinned    true if the method holds a monitor here, or is a class initializer (it holds the
 *                  class's initialization lock): the call always runs at its declaration
 * @param line      the source line, or -1
 */
record CreationSite(MethodInsnNode call, List<AbstractInsnNode> postOps, VarInsnNode store, Type valueType,
                    boolean pinned, int line) {
}
