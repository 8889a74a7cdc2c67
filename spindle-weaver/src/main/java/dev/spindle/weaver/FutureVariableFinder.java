package dev.spindle.weaver;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.TypePath;
import org.objectweb.asm.TypeReference;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableAnnotationNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeAnnotationNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds a method's {@code @Future} variables in the type annotations javac recorded on its local
 * variables (target LOCAL_VARIABLE: the variable's slot and scope), and checks each assignment's
 * shape. Either every variable of the method is supported, or {@link UnsupportedShapeException}
 * names the first problem.
 */
final class FutureVariableFinder {
    static final String FUTURE_DESC = "Ldev/spindle/Future;";

    private final MethodNode mn;
    private final Map<AbstractInsnNode, Integer> pos = new IdentityHashMap<>();
    private final Set<LabelNode> branchLabels = Collections.newSetFromMap(new IdentityHashMap<>());
    private MonitorRegions monitors;

    private FutureVariableFinder(MethodNode mn) {
        this.mn = mn;
    }

    /** True if the method carries the annotation somewhere the weaver looks. */
    static boolean mentions(MethodNode mn) {
        return hasFuture(mn.invisibleLocalVariableAnnotations) || hasFuture(mn.visibleLocalVariableAnnotations)
                || hasFutureType(mn.invisibleTypeAnnotations) || hasFutureType(mn.visibleTypeAnnotations);
    }

    private static boolean hasFuture(List<LocalVariableAnnotationNode> list) {
        if (list != null) {
            for (LocalVariableAnnotationNode a : list) {
                if (FUTURE_DESC.equals(a.desc)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasFutureType(List<TypeAnnotationNode> list) {
        if (list != null) {
            for (TypeAnnotationNode a : list) {
                if (FUTURE_DESC.equals(a.desc)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The class's fields annotated {@code @Future} (a misuse the weaver reports). */
    static List<String> annotatedFields(ClassNode cn) {
        List<String> out = new ArrayList<>();
        for (FieldNode f : cn.fields) {
            if (hasFutureType(f.invisibleTypeAnnotations) || hasFutureType(f.visibleTypeAnnotations)) {
                out.add(f.name);
            }
        }
        return out;
    }

    static List<FutureVariable> find(MethodNode mn) throws UnsupportedShapeException {
        return new FutureVariableFinder(mn).find();
    }

    private List<FutureVariable> find() throws UnsupportedShapeException {
        int k = 0;
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            pos.put(i, k++);
            if (i instanceof JumpInsnNode j) {
                branchLabels.add(j.label);
            } else if (i instanceof TableSwitchInsnNode t) {
                branchLabels.add(t.dflt);
                branchLabels.addAll(t.labels);
            } else if (i instanceof LookupSwitchInsnNode t) {
                branchLabels.add(t.dflt);
                branchLabels.addAll(t.labels);
            } else if (i.getOpcode() == Opcodes.JSR || i.getOpcode() == Opcodes.RET) {
                throw new UnsupportedShapeException(-1, "the method uses jsr/ret subroutines (class files before Java 7)");
            }
        }
        for (TryCatchBlockNode t : mn.tryCatchBlocks) {
            branchLabels.add(t.start);
            branchLabels.add(t.end);
            branchLabels.add(t.handler);
        }
        List<TypeAnnotationNode> elsewhere = new ArrayList<>();
        if (mn.invisibleTypeAnnotations != null) {
            elsewhere.addAll(mn.invisibleTypeAnnotations);
        }
        if (mn.visibleTypeAnnotations != null) {
            elsewhere.addAll(mn.visibleTypeAnnotations);
        }
        for (TypeAnnotationNode a : elsewhere) {
            if (FUTURE_DESC.equals(a.desc)) {
                int sort = new TypeReference(a.typeRef).getSort();
                String where = switch (sort) {
                    case TypeReference.METHOD_FORMAL_PARAMETER -> "a parameter";
                    case TypeReference.METHOD_RETURN -> "the return type";
                    case TypeReference.METHOD_RECEIVER -> "the receiver";
                    case TypeReference.THROWS -> "a throws clause";
                    default -> "a type that is not a local variable's";
                };
                throw new UnsupportedShapeException(firstLine(), "@Future on " + where
                        + ": it applies only to local variables initialized by a method call");
            }
        }
        List<LocalVariableAnnotationNode> annotations = new ArrayList<>();
        if (mn.invisibleLocalVariableAnnotations != null) {
            annotations.addAll(mn.invisibleLocalVariableAnnotations);
        }
        if (mn.visibleLocalVariableAnnotations != null) {
            annotations.addAll(mn.visibleLocalVariableAnnotations);
        }
        List<FutureVariable> vars = new ArrayList<>();
        for (LocalVariableAnnotationNode a : annotations) {
            if (FUTURE_DESC.equals(a.desc)) {
                for (List<Integer> copy : copies(a)) {
                    vars.add(variable(a, copy));
                }
            }
        }
        return vars;
    }

    /**
     * The annotation's ranges grouped into the variables they describe — one per local slot —
     * each a list of indexes into the annotation's range table, in code order. Usually one
     * variable: its declaration's range, and more ranges where javac interrupted its scope (a
     * variable declared without an initializer and assigned in both branches of an {@code if} is
     * in scope from the first assignment to the {@code else} and again from the merge on; the
     * {@code else} branch's call is then made at its declaration, the read finds no handle and
     * loads the slot). But a variable declared inside a {@code finally} block is declared once per
     * copy of the block javac emits (the normal path, the exception handler, each {@code return}
     * or {@code break} leaving the {@code try}), each copy with its own store, mostly in a slot of
     * its own, all under one annotation: each slot is a variable, its first range opened by its
     * own declaration. (Copies that share a slot stay one variable: the later copies' calls are
     * made at their declaration, as in the {@code else} branch above.)
     */
    private List<List<Integer>> copies(LocalVariableAnnotationNode a) {
        List<Integer> order = new ArrayList<>();
        for (int r = 0; r < a.start.size(); r++) {
            order.add(r);
        }
        order.sort((x, y) -> Integer.compare(pos.get(a.start.get(x)), pos.get(a.start.get(y))));
        Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
        for (int r : order) {
            bySlot.computeIfAbsent(a.index.get(r), k -> new ArrayList<>()).add(r);
        }
        return new ArrayList<>(bySlot.values());
    }

    private FutureVariable variable(LocalVariableAnnotationNode a, List<Integer> copy) throws UnsupportedShapeException {
        int first = copy.get(0);
        int index = a.index.get(first);
        String name = nameOf(index, a.start.get(first));
        int line = lineBefore(a.start.get(first));
        TypeReference ref = new TypeReference(a.typeRef);
        if (ref.getSort() == TypeReference.RESOURCE_VARIABLE) {
            throw new UnsupportedShapeException(line, "@Future on try-with-resources variable " + name
                    + ": a resource must be open when the block starts");
        }
        checkPath(a.typePath, name, line);
        FutureVariable v = new FutureVariable(name, index);
        for (int r : copy) {
            v.ranges.add(new LabelNode[] {a.start.get(r), a.end.get(r)});
        }
        AbstractInsnNode decl = previousReal(v.ranges.get(0)[0]);
        if (!(decl instanceof VarInsnNode store) || store.var != index || !isStore(store.getOpcode())) {
            throw new UnsupportedShapeException(line, "@Future variable " + name
                    + " has no assignment right before its scope (was it declared without an initializer "
                    + "and assigned in a branch?)");
        }
        v.sites.add(site(store, name));
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (!inScope(v, i)) {
                continue;
            }
            if (i instanceof VarInsnNode vi && vi.var == index) {
                if (isStore(vi.getOpcode())) {
                    CreationSite s = trySite(vi);
                    if (s != null) {
                        v.sites.add(s);
                    } else {
                        v.plainStores.add(vi);
                    }
                } else if (vi.getOpcode() != Opcodes.RET) {
                    v.reads.add(vi);
                }
            } else if (i instanceof IincInsnNode inc && inc.var == index) {
                v.increments.add(inc);
            } else if (i.getOpcode() == Opcodes.MONITORENTER || i instanceof MethodInsnNode m && acquiresLock(m)) {
                v.lockAcquisitions.add(i);
            }
        }
        v.type = variableType(v);
        return v;
    }

    private void checkPath(TypePath path, String name, int line) throws UnsupportedShapeException {
        if (path == null) {
            return;
        }
        for (int i = 0; i < path.getLength(); i++) {
            int step = path.getStep(i);
            if (step != TypePath.ARRAY_ELEMENT && step != TypePath.INNER_TYPE) {
                throw new UnsupportedShapeException(line, "@Future annotates a type argument of " + name
                        + ", not the variable: write it before the variable's type");
            }
        }
    }

    /** The type a read must find in the variable's slot: its declared type if the class has a LocalVariableTable. */
    private Type variableType(FutureVariable v) {
        if (mn.localVariables != null) {
            int start = pos.get(v.ranges.get(0)[0]);
            for (LocalVariableNode l : mn.localVariables) {
                if (l.index == v.index && pos.get(l.start) <= start && start < pos.get(l.end)) {
                    return Type.getType(l.desc);
                }
            }
        }
        Type t = v.sites.get(0).valueType();
        for (CreationSite s : v.sites) {
            if (!s.valueType().equals(t)) {
                return t.getSort() >= Type.ARRAY ? Type.getObjectType("java/lang/Object") : t;
            }
        }
        return t;
    }

    private CreationSite site(VarInsnNode store, String name) throws UnsupportedShapeException {
        CreationSite s = trySite(store);
        if (s == null) {
            AbstractInsnNode p = previousReal(store);
            if (p instanceof MethodInsnNode && hasBranchLabelBetween(p, store)) {
                throw new UnsupportedShapeException(lineBefore(store), "the value assigned to @Future variable "
                        + name + " is the result of a conditional expression, not a single method call");
            }
            throw new UnsupportedShapeException(lineBefore(store), "the value assigned to @Future variable " + name
                    + " is " + describe(p) + ", not a method call: write @Future T x = call(args);");
        }
        return s;
    }

    /** The creation site ending at {@code store}, or null if the stored value is not a method call's. */
    private CreationSite trySite(VarInsnNode store) throws UnsupportedShapeException {
        LinkedList<AbstractInsnNode> ops = new LinkedList<>();
        AbstractInsnNode p = previousReal(store);
        MethodInsnNode lastBoxing = null;
        while (p != null && isPostOp(p)) {
            ops.addFirst(p);
            if (p instanceof MethodInsnNode m) {
                lastBoxing = lastBoxing == null ? m : lastBoxing;
            }
            p = previousReal(p);
        }
        MethodInsnNode call;
        if (p instanceof MethodInsnNode m && !m.name.equals("<init>")) {
            call = m;
        } else if (lastBoxing != null) {
            call = lastBoxing;                      // e.g. Integer.valueOf(5) or boxed.intValue() itself
            while (ops.getFirst() != call) {
                ops.removeFirst();
            }
            ops.removeFirst();
        } else if (p instanceof MethodInsnNode) {
            throw new UnsupportedShapeException(lineBefore(store), "the value assigned to a @Future variable is "
                    + "a new object (a constructor call), not a method call");
        } else {
            return null;
        }
        if (hasBranchLabelBetween(call, store)) {
            return null;
        }
        Type value = ops.isEmpty() ? Type.getReturnType(call.desc) : resultType(ops.getLast());
        // A class initializer holds its class's initialization lock as a synchronized method holds
        // its monitor: a worker running the call would wait for the class, which waits for the call.
        boolean pinned = (mn.access & Opcodes.ACC_SYNCHRONIZED) != 0 || mn.name.equals("<clinit>")
                || monitors().holdsMonitor(mn, call);
        return new CreationSite(call, List.copyOf(ops), store, value, pinned, lineBefore(call));
    }

    private MonitorRegions monitors() {
        if (monitors == null) {
            monitors = MonitorRegions.of(mn);
        }
        return monitors;
    }

    private boolean hasBranchLabelBetween(AbstractInsnNode from, AbstractInsnNode to) {
        for (AbstractInsnNode i = from.getNext(); i != null && i != to; i = i.getNext()) {
            if (i instanceof LabelNode l && branchLabels.contains(l)) {
                return true;
            }
        }
        return false;
    }

    static boolean isPostOp(AbstractInsnNode i) {
        int op = i.getOpcode();
        if (op == Opcodes.CHECKCAST || (op >= Opcodes.I2L && op <= Opcodes.I2S)) {
            return true;
        }
        return i instanceof MethodInsnNode m && (isBoxing(m) || isUnboxing(m));
    }

    private static final Set<String> BOXES = Set.of("java/lang/Integer", "java/lang/Long", "java/lang/Double",
            "java/lang/Float", "java/lang/Short", "java/lang/Byte", "java/lang/Character", "java/lang/Boolean");

    private static boolean isBoxing(MethodInsnNode m) {
        return m.getOpcode() == Opcodes.INVOKESTATIC && m.name.equals("valueOf") && BOXES.contains(m.owner)
                && Type.getArgumentTypes(m.desc).length == 1
                && Type.getArgumentTypes(m.desc)[0].getSort() < Type.ARRAY;
    }

    private static boolean isUnboxing(MethodInsnNode m) {
        return m.getOpcode() == Opcodes.INVOKEVIRTUAL && BOXES.contains(m.owner) && m.name.endsWith("Value")
                && Type.getArgumentTypes(m.desc).length == 0;
    }

    private static Type resultType(AbstractInsnNode op) {
        if (op instanceof TypeInsnNode t) {
            return Type.getObjectType(t.desc);
        }
        if (op instanceof MethodInsnNode m) {
            return Type.getReturnType(m.desc);
        }
        return switch (op.getOpcode()) {
            case Opcodes.I2L, Opcodes.F2L, Opcodes.D2L -> Type.LONG_TYPE;
            case Opcodes.I2F, Opcodes.L2F, Opcodes.D2F -> Type.FLOAT_TYPE;
            case Opcodes.I2D, Opcodes.L2D, Opcodes.F2D -> Type.DOUBLE_TYPE;
            case Opcodes.I2B -> Type.BYTE_TYPE;
            case Opcodes.I2C -> Type.CHAR_TYPE;
            case Opcodes.I2S -> Type.SHORT_TYPE;
            default -> Type.INT_TYPE;
        };
    }

    private static final Set<String> LOCKS = Set.of("java/util/concurrent/locks/Lock",
            "java/util/concurrent/locks/ReentrantLock", "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock",
            "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock");
    private static final Set<String> LOCK_METHODS = Set.of("lock", "lockInterruptibly", "tryLock");
    private static final Set<String> STAMPED_METHODS = Set.of("writeLock", "readLock", "tryWriteLock", "tryReadLock",
            "writeLockInterruptibly", "readLockInterruptibly");

    /**
     * True for a call that takes a lock of {@code java.util.concurrent.locks} — {@code Lock}'s
     * {@code lock}, {@code lockInterruptibly} and {@code tryLock} on the interface or the JDK's
     * implementations, {@code StampedLock}'s read and write locks. Like a {@code monitorenter}, the
     * woven method finishes an outstanding call before it (see {@code MethodWeaver}). A lock of
     * another class is beyond what the weaver recognizes.
     */
    static boolean acquiresLock(MethodInsnNode m) {
        return LOCKS.contains(m.owner) && LOCK_METHODS.contains(m.name)
                || m.owner.equals("java/util/concurrent/locks/StampedLock") && STAMPED_METHODS.contains(m.name);
    }

    static boolean isStore(int op) {
        return op >= Opcodes.ISTORE && op <= Opcodes.ASTORE;
    }

    boolean inScope(FutureVariable v, AbstractInsnNode i) {
        int p = pos.get(i);
        for (LabelNode[] r : v.ranges) {
            if (pos.get(r[0]) <= p && p < pos.get(r[1])) {
                return true;
            }
        }
        return false;
    }

    /** The first instruction at or after {@code i} that is not a label, line number or frame, or null. */
    static AbstractInsnNode nextReal(AbstractInsnNode i) {
        AbstractInsnNode n = i;
        while (n != null && n.getOpcode() < 0) {
            n = n.getNext();
        }
        return n;
    }

    static AbstractInsnNode previousReal(AbstractInsnNode i) {
        AbstractInsnNode p = i.getPrevious();
        while (p != null && p.getOpcode() < 0) {
            p = p.getPrevious();
        }
        return p;
    }

    private String nameOf(int index, LabelNode start) {
        if (mn.localVariables != null) {
            for (LocalVariableNode l : mn.localVariables) {
                if (l.index == index && pos.get(l.start) <= pos.get(start) && pos.get(start) < pos.get(l.end)) {
                    return "'" + l.name + "'";
                }
            }
        }
        return "in local slot " + index;
    }

    static int lineBefore(AbstractInsnNode i) {
        for (AbstractInsnNode p = i; p != null; p = p.getPrevious()) {
            if (p instanceof LineNumberNode l) {
                return l.line;
            }
        }
        return -1;
    }

    private int firstLine() {
        for (AbstractInsnNode p = mn.instructions.getFirst(); p != null; p = p.getNext()) {
            if (p instanceof LineNumberNode l) {
                return l.line;
            }
        }
        return -1;
    }

    private static String describe(AbstractInsnNode p) {
        if (p == null) {
            return "nothing";
        }
        if (p instanceof LabelNode) {
            return "the result of a conditional or a branch";
        }
        int op = p.getOpcode();
        if (op == Opcodes.INVOKEDYNAMIC) {
            return "made by invokedynamic (a lambda, a method reference or a string concatenation)";
        }
        if (op >= Opcodes.ACONST_NULL && op <= Opcodes.LDC) {
            return "a constant";
        }
        if (op >= Opcodes.ILOAD && op <= Opcodes.ALOAD) {
            return "another variable";
        }
        if (op >= Opcodes.IALOAD && op <= Opcodes.SALOAD) {
            return "an array element";
        }
        if (op == Opcodes.GETFIELD || op == Opcodes.GETSTATIC) {
            return "a field";
        }
        if (op >= Opcodes.IADD && op <= Opcodes.LXOR || op >= Opcodes.LCMP && op <= Opcodes.DCMPG) {
            return "an arithmetic expression";
        }
        if (op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY || op == Opcodes.MULTIANEWARRAY) {
            return "a new array";
        }
        return "computed by opcode " + op;
    }
}
