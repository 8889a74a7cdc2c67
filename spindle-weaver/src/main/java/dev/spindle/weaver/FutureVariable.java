package dev.spindle.weaver;

import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A local variable annotated {@code @Future}: its slot, its scope (the ranges javac recorded for
 * the annotation), the calls that assign it, and the instructions that read or overwrite it.
 */
final class FutureVariable {
    final String name;
    final int index;
    /** Scope: pairs of (start inclusive, end exclusive) labels. */
    final List<LabelNode[]> ranges = new ArrayList<>();
    final List<CreationSite> sites = new ArrayList<>();
    final List<VarInsnNode> reads = new ArrayList<>();
    final List<IincInsnNode> increments = new ArrayList<>();
    final List<VarInsnNode> plainStores = new ArrayList<>();
    /**
     * Lock acquisitions in the variable's scope — {@code monitorenter}s and calls that take a
     * {@code java.util.concurrent.locks} lock: the outstanding call is finished before each.
     */
    final List<AbstractInsnNode> lockAcquisitions = new ArrayList<>();
    /** The variable's type: what a read must find in the slot. */
    Type type;
    /** The local holding the outstanding call's handle (null, a record, or a kept failure). */
    int handle = -1;

    FutureVariable(String name, int index) {
        this.name = name;
        this.index = index;
    }
}
