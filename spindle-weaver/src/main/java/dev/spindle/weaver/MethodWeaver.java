package dev.spindle.weaver;

import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceInterpreter;
import org.objectweb.asm.tree.analysis.SourceValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites one method's {@code @Future} variables onto {@code dev.spindle.future.FutureCall}
 * (see ARCHITECTURE §10 for the emitted code):
 * <ul>
 * <li>each creation site stores the receiver and arguments in fresh locals, finishes the
 * variable's previous call, asks the runtime, and either makes the call right there (its failure
 * kept in the variable's handle) or fills and submits a record; a call in a monitor region or a
 * class initializer is always made right there, and an outstanding call is finished before the
 * method enters a monitor or takes a {@code java.util.concurrent.locks} lock;</li>
 * <li>each read (and {@code iinc}) of the variable first takes the value from the handle if one
 * is outstanding;</li>
 * <li>a plain assignment, every edge leaving the variable's scope, and every return finish the
 * outstanding call; a catch-all handler finishes them all before an exception leaves the
 * method;</li>
 * <li>one private static synthetic body method per site runs the call from a record.</li>
 * </ul>
 * Analysis happens before any change, so a refused method is left exactly as it was. Last,
 * {@link DeadCheckRemover} deletes the guards a flow analysis proves never fire.
 */
final class MethodWeaver {
    static final String CALL = "dev/spindle/future/FutureCall";
    static final String BODY = "dev/spindle/future/FutureCallBody";
    static final String BODY_PREFIX = "spindle$future$";
    static final String SUBMIT_PREFIX = "spindle$submit$";
    private static final Handle METAFACTORY = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/LambdaMetafactory",
            "metafactory", "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;"
            + "Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;Ljava/lang/invoke/MethodType;)"
            + "Ljava/lang/invoke/CallSite;", false);

    private final ClassNode cn;
    private final MethodNode mn;
    private final List<FutureVariable> vars;
    private final boolean isInterface;
    private final Map<AbstractInsnNode, Integer> pos = new IdentityHashMap<>();
    private int nextLocal;
    private int pending;
    private int nextSite;
    final List<MethodNode> bodies = new ArrayList<>();
    private final List<DeadCheckRemover.Guard> guards = new ArrayList<>();
    private final List<DeadCheckRemover.ExitCheck> exitChecks = new ArrayList<>();
    /** The catches around calls made in place, which keep a failure for the read ({@link DeclarationRaise}). */
    final List<TryCatchBlockNode> siteHandlers = new ArrayList<>();
    /** The catch-all that settles every handle before an exception leaves the method. */
    TryCatchBlockNode catchAll;

    MethodWeaver(ClassNode cn, MethodNode mn, List<FutureVariable> vars, int firstSite) {
        this.cn = cn;
        this.mn = mn;
        this.vars = vars;
        this.isInterface = (cn.access & Opcodes.ACC_INTERFACE) != 0;
        this.nextSite = firstSite;
    }

    int nextSite() {
        return nextSite;
    }

    /** The slot of the method's pending failure, raised at its exits. */
    int pendingSlot() {
        return pending;
    }

    /** Checks what needs the whole method's data flow; throws before anything changed. */
    AbstractInsnNode check() throws UnsupportedShapeException {
        Frame<SourceValue>[] frames;
        try {
            frames = new Analyzer<>(new SourceInterpreter()).analyze(cn.name, mn);
        } catch (AnalyzerException e) {
            throw new UnsupportedShapeException(-1, "cannot analyse the method's bytecode: " + e.getMessage());
        }
        AbstractInsnNode thisInit = null;
        if (mn.name.equals("<init>")) {
            for (AbstractInsnNode i = mn.instructions.getFirst(); i != null && thisInit == null; i = i.getNext()) {
                if (i instanceof MethodInsnNode m && m.getOpcode() == Opcodes.INVOKESPECIAL && m.name.equals("<init>")) {
                    Frame<SourceValue> f = frames[mn.instructions.indexOf(i)];
                    if (f == null) {
                        continue;
                    }
                    SourceValue recv = f.getStack(f.getStackSize() - Type.getArgumentTypes(m.desc).length - 1);
                    for (AbstractInsnNode src : recv.insns) {
                        if (src instanceof VarInsnNode v && v.getOpcode() == Opcodes.ALOAD && v.var == 0) {
                            thisInit = i;
                        }
                    }
                }
            }
        }
        for (FutureVariable v : vars) {
            for (CreationSite s : v.sites) {
                int at = mn.instructions.indexOf(s.call());
                Frame<SourceValue> f = frames[at];
                if (f == null) {
                    throw new UnsupportedShapeException(s.line(), "the call assigned to @Future variable " + v.name
                            + " is unreachable");
                }
                if (f.getStackSize() != argumentTypes(s.call()).size()) {
                    throw new UnsupportedShapeException(s.line(), "the call assigned to @Future variable " + v.name
                            + " is inside an expression that keeps other values on the operand stack");
                }
                if (mn.name.equals("<init>") && (thisInit == null
                        || mn.instructions.indexOf(thisInit) > at)) {
                    throw new UnsupportedShapeException(s.line(), "@Future variable " + v.name
                            + " is assigned before this() or super() in a constructor");
                }
            }
        }
        return thisInit;
    }

    /** Rewrites the method; {@code thisInit} is from {@link #check()}. */
    void rewrite(AbstractInsnNode thisInit) {
        int k = 0;
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            pos.put(i, k++);
        }
        nextLocal = mn.maxLocals;
        for (FutureVariable v : vars) {
            v.handle = nextLocal++;
        }
        pending = nextLocal++;
        int exc = nextLocal++;

        // ---- plan the edges that leave a variable's scope, before anything moves
        Map<String, LabelNode> trampolines = new LinkedHashMap<>();
        Map<LabelNode, Object[]> trampolinePlans = new LinkedHashMap<>();
        List<Object[]> redirects = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            for (LabelNode target : targets(i)) {
                List<FutureVariable> leaving = new ArrayList<>();
                for (FutureVariable v : vars) {
                    if (inScope(v, i) && !inScope(v, target)) {
                        leaving.add(v);
                    }
                }
                if (leaving.isEmpty()) {
                    continue;
                }
                StringBuilder key = new StringBuilder().append(pos.get(target));
                for (FutureVariable v : leaving) {
                    key.append(',').append(v.handle);
                }
                LabelNode t = trampolines.computeIfAbsent(key.toString(), x -> new LabelNode());
                trampolinePlans.putIfAbsent(t, new Object[] {leaving, target});
                redirects.add(new Object[] {i, target, t});
            }
        }
        List<Object[]> fallthroughs = new ArrayList<>();
        for (FutureVariable v : vars) {
            for (LabelNode[] r : v.ranges) {
                AbstractInsnNode last = FutureVariableFinder.previousReal(r[1]);
                if (last == null || pos.get(last) < pos.get(r[0]) || !fallsThrough(last)) {
                    continue;
                }
                boolean continues = false;
                for (LabelNode[] o : v.ranges) {
                    continues |= o != r && pos.get(o[0]) <= pos.get(r[1]) && pos.get(r[1]) < pos.get(o[1]);
                }
                if (!continues) {
                    fallthroughs.add(new Object[] {v, r[1]});
                }
            }
        }
        List<AbstractInsnNode> returns = new ArrayList<>();
        for (AbstractInsnNode i = mn.instructions.getFirst(); i != null; i = i.getNext()) {
            if (i.getOpcode() >= Opcodes.IRETURN && i.getOpcode() <= Opcodes.RETURN) {
                returns.add(i);
            }
        }

        // ---- rewrite
        for (Object[] r : redirects) {
            redirect((AbstractInsnNode) r[0], (LabelNode) r[1], (LabelNode) r[2]);
        }
        for (Object[] f : fallthroughs) {
            mn.instructions.insertBefore((LabelNode) f[1], settle((FutureVariable) f[0]));
        }
        for (AbstractInsnNode r : returns) {
            InsnList l = new InsnList();
            for (FutureVariable v : vars) {
                l.add(settle(v));
            }
            VarInsnNode load = new VarInsnNode(Opcodes.ALOAD, pending);
            MethodInsnNode check = new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "throwIfFailed", "(Ljava/lang/Throwable;)V", false);
            l.add(load);
            l.add(check);
            exitChecks.add(new DeadCheckRemover.ExitCheck(load, check));
            mn.instructions.insertBefore(r, l);
        }
        for (FutureVariable v : vars) {
            for (VarInsnNode read : v.reads) {
                mn.instructions.insertBefore(read, touch(v));
            }
            for (IincInsnNode inc : v.increments) {
                mn.instructions.insertBefore(inc, touch(v));
            }
            for (VarInsnNode store : v.plainStores) {
                mn.instructions.insertBefore(store, settle(v));
            }
            for (AbstractInsnNode acquire : v.lockAcquisitions) {
                mn.instructions.insertBefore(acquire, finishBeforeLock(v));
            }
            for (CreationSite s : v.sites) {
                rewriteSite(v, s, siteHandlers);
            }
        }

        // ---- entry, trampolines, catch-all
        InsnList entry = new InsnList();
        for (FutureVariable v : vars) {
            entry.add(new InsnNode(Opcodes.ACONST_NULL));
            entry.add(new VarInsnNode(Opcodes.ASTORE, v.handle));
        }
        entry.add(new InsnNode(Opcodes.ACONST_NULL));
        entry.add(new VarInsnNode(Opcodes.ASTORE, pending));
        LabelNode start = new LabelNode();
        if (thisInit != null) {
            mn.instructions.insertBefore(mn.instructions.getFirst(), entry);
            mn.instructions.insert(thisInit, start);
        } else {
            entry.add(start);
            mn.instructions.insertBefore(mn.instructions.getFirst(), entry);
        }
        for (Map.Entry<LabelNode, Object[]> t : trampolinePlans.entrySet()) {
            @SuppressWarnings("unchecked")
            List<FutureVariable> leaving = (List<FutureVariable>) t.getValue()[0];
            mn.instructions.add(t.getKey());
            for (FutureVariable v : leaving) {
                mn.instructions.add(settle(v));
            }
            mn.instructions.add(new JumpInsnNode(Opcodes.GOTO, (LabelNode) t.getValue()[1]));
        }
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        mn.instructions.add(end);
        mn.instructions.add(handler);
        mn.instructions.add(new VarInsnNode(Opcodes.ASTORE, exc));
        for (FutureVariable v : vars) {
            mn.instructions.add(settle(v));
        }
        mn.instructions.add(new VarInsnNode(Opcodes.ALOAD, exc));
        mn.instructions.add(new VarInsnNode(Opcodes.ALOAD, pending));
        mn.instructions.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "merge",
                "(Ljava/lang/Throwable;Ljava/lang/Throwable;)Ljava/lang/Throwable;", false));
        mn.instructions.add(new InsnNode(Opcodes.ATHROW));
        mn.tryCatchBlocks.addAll(0, siteHandlers);
        catchAll = new TryCatchBlockNode(start, end, handler, null);
        mn.tryCatchBlocks.add(catchAll);
        mn.maxLocals = nextLocal;
        int[] tracked = new int[vars.size() + 1];
        for (int i = 0; i < vars.size(); i++) {
            tracked[i] = vars.get(i).handle;
        }
        tracked[vars.size()] = pending;
        new DeadCheckRemover(mn, tracked, guards, exitChecks).run();
    }

    // ------------------------------------------------------------------ creation site

    private void rewriteSite(FutureVariable v, CreationSite s, List<TryCatchBlockNode> handlers) {
        MethodInsnNode call = s.call();
        List<Type> params = argumentTypes(call);
        int[] locals = new int[params.size()];
        for (int i = 0; i < locals.length; i++) {
            locals[i] = nextLocal;
            nextLocal += params.get(i).getSize();
        }
        int site = nextSite++;
        InsnList l = new InsnList();
        for (int i = locals.length - 1; i >= 0; i--) {
            l.add(new VarInsnNode(params.get(i).getOpcode(Opcodes.ISTORE), locals[i]));
        }
        l.add(settle(v));
        LabelNode eager = new LabelNode();
        LabelNode done = new LabelNode();
        int storeOp = s.store().getOpcode();
        if (!s.pinned()) {
            String bodyName = BODY_PREFIX + site;
            bodies.add(body(bodyName, s, params));
            l.add(new InvokeDynamicInsnNode("run", "()L" + BODY + ";", METAFACTORY,
                    Type.getMethodType("(L" + CALL + ";)V"),
                    new Handle(Opcodes.H_INVOKESTATIC, cn.name, bodyName, "(L" + CALL + ";)V", isInterface),
                    Type.getMethodType("(L" + CALL + ";)V")));
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "begin", "(L" + BODY + ";)Ljava/lang/Object;", false));
            l.add(new InsnNode(Opcodes.DUP));
            l.add(new VarInsnNode(Opcodes.ASTORE, v.handle));
            l.add(new JumpInsnNode(Opcodes.IFNULL, eager));
            // filling the record happens in a separate method, so the rarely taken deferral
            // stays out of the compiled caller (C2 does not inline a cold call)
            l.add(new VarInsnNode(Opcodes.ALOAD, v.handle));
            for (int i = 0; i < locals.length; i++) {
                l.add(new VarInsnNode(params.get(i).getOpcode(Opcodes.ILOAD), locals[i]));
            }
            String submitName = SUBMIT_PREFIX + site;
            String submitDesc = submitDescriptor(params);
            bodies.add(submitter(submitName, submitDesc, params));
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, cn.name, submitName, submitDesc, isInterface));
            l.add(defaultValue(storeOp));
            l.add(new VarInsnNode(storeOp, v.index));
            l.add(new JumpInsnNode(Opcodes.GOTO, done));
        }
        l.add(eager);
        LabelNode tryStart = new LabelNode();
        LabelNode tryEnd = new LabelNode();
        LabelNode caught = new LabelNode();
        for (int i = 0; i < locals.length; i++) {
            l.add(new VarInsnNode(params.get(i).getOpcode(Opcodes.ILOAD), locals[i]));
        }
        l.add(tryStart);
        mn.instructions.insertBefore(call, l);
        // the call and its conversions stay where they are: between tryStart and tryEnd
        AbstractInsnNode lastOp = s.postOps().isEmpty() ? call : s.postOps().get(s.postOps().size() - 1);
        InsnList after = new InsnList();
        after.add(tryEnd);
        after.add(new VarInsnNode(storeOp, v.index));
        after.add(new JumpInsnNode(Opcodes.GOTO, done));
        after.add(caught);
        after.add(new VarInsnNode(Opcodes.ASTORE, v.handle));
        after.add(defaultValue(storeOp));
        after.add(new VarInsnNode(storeOp, v.index));
        after.add(done);
        mn.instructions.insert(lastOp, after);
        mn.instructions.remove(s.store());
        handlers.add(new TryCatchBlockNode(tryStart, tryEnd, caught, "java/lang/Throwable"));
    }

    private static String submitDescriptor(List<Type> params) {
        StringBuilder d = new StringBuilder("(Ljava/lang/Object;");
        for (Type t : params) {
            d.append(t.getDescriptor());
        }
        return d.append(")V").toString();
    }

    /**
     * {@code private static synthetic void spindle$submit$N(Object record, receiver, args...)}:
     * stores the receiver and arguments into the record and submits it.
     */
    private MethodNode submitter(String name, String desc, List<Type> params) {
        MethodNode m = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name, desc,
                null, null);
        InsnList l = m.instructions;
        int refs = 0;
        int prims = 0;
        int local = 1;
        for (Type t : params) {
            l.add(new VarInsnNode(Opcodes.ALOAD, 0));
            l.add(new TypeInsnNode(Opcodes.CHECKCAST, CALL));
            boolean ref = t.getSort() >= Type.ARRAY;
            l.add(pushInt(ref ? refs++ : prims++));
            l.add(new VarInsnNode(t.getOpcode(Opcodes.ILOAD), local));
            local += t.getSize();
            if (ref) {
                l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "putRef", "(ILjava/lang/Object;)V", false));
            } else {
                l.add(toBits(t));
                l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "putLong", "(IJ)V", false));
            }
        }
        l.add(new VarInsnNode(Opcodes.ALOAD, 0));
        l.add(new TypeInsnNode(Opcodes.CHECKCAST, CALL));
        l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "submit", "()V", false));
        l.add(new InsnNode(Opcodes.RETURN));
        return m;
    }

    /** {@code private static synthetic void spindle$future$N(FutureCall c)}: the call from a record. */
    private MethodNode body(String name, CreationSite s, List<Type> params) {
        MethodNode b = new MethodNode(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC, name,
                "(L" + CALL + ";)V", null, new String[] {"java/lang/Throwable"});
        InsnList l = b.instructions;
        LabelNode first = new LabelNode();
        l.add(first);
        if (s.line() > 0) {
            l.add(new LineNumberNode(s.line(), first));
        }
        l.add(new VarInsnNode(Opcodes.ALOAD, 0));
        int refs = 0;
        int prims = 0;
        for (Type t : params) {
            l.add(new VarInsnNode(Opcodes.ALOAD, 0));
            if (t.getSort() >= Type.ARRAY) {
                l.add(pushInt(refs++));
                l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "argRef", "(I)Ljava/lang/Object;", false));
                if (!t.getInternalName().equals("java/lang/Object")) {
                    l.add(new TypeInsnNode(Opcodes.CHECKCAST, t.getInternalName()));
                }
            } else {
                l.add(pushInt(prims++));
                l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "argLong", "(I)J", false));
                l.add(fromBits(t));
            }
        }
        Map<LabelNode, LabelNode> none = new HashMap<>();
        l.add(s.call().clone(none));
        for (AbstractInsnNode op : s.postOps()) {
            l.add(op.clone(none));
        }
        if (s.valueType().getSort() >= Type.ARRAY) {
            l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "resultRef", "(Ljava/lang/Object;)V", false));
        } else {
            l.add(toBits(s.valueType()));
            l.add(new MethodInsnNode(Opcodes.INVOKEVIRTUAL, CALL, "resultLong", "(J)V", false));
        }
        l.add(new InsnNode(Opcodes.RETURN));
        return b;
    }

    // ------------------------------------------------------------------ reads, exits

    /** If the variable's call is outstanding: take its value (or throw its failure) into the variable. */
    private InsnList touch(FutureVariable v) {
        InsnList l = new InsnList();
        LabelNode skip = new LabelNode();
        l.add(guard(v, skip));
        l.add(new VarInsnNode(Opcodes.ALOAD, v.handle));
        l.add(new InsnNode(Opcodes.ACONST_NULL));
        l.add(new VarInsnNode(Opcodes.ASTORE, v.handle));
        Type t = v.type;
        if (t.getSort() >= Type.ARRAY) {
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "touchRef", "(Ljava/lang/Object;)Ljava/lang/Object;", false));
            if (!t.getInternalName().equals("java/lang/Object")) {
                l.add(new TypeInsnNode(Opcodes.CHECKCAST, t.getInternalName()));
            }
        } else {
            l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "touchLong", "(Ljava/lang/Object;)J", false));
            l.add(fromBits(t));
        }
        l.add(new VarInsnNode(t.getOpcode(Opcodes.ISTORE), v.index));
        l.add(skip);
        return l;
    }

    /**
     * Before a {@code monitorenter} or a {@code java.util.concurrent.locks} acquisition in the
     * variable's scope, if its call is outstanding: finish it and keep its value and failure for
     * the read. A thread running the call could need the lock the method is about to take, and
     * the method would then wait for the call while holding it.
     */
    private InsnList finishBeforeLock(FutureVariable v) {
        InsnList l = new InsnList();
        LabelNode skip = new LabelNode();
        l.add(guard(v, skip));
        l.add(new VarInsnNode(Opcodes.ALOAD, v.handle));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "finishBeforeLock", "(Ljava/lang/Object;)V", false));
        l.add(skip);
        return l;
    }

    /** If the variable's call is outstanding: finish it, keeping its failure in {@code pending}. */
    private InsnList settle(FutureVariable v) {
        InsnList l = new InsnList();
        LabelNode skip = new LabelNode();
        l.add(guard(v, skip));
        l.add(new VarInsnNode(Opcodes.ALOAD, pending));
        l.add(new VarInsnNode(Opcodes.ALOAD, v.handle));
        l.add(new InsnNode(Opcodes.ACONST_NULL));
        l.add(new VarInsnNode(Opcodes.ASTORE, v.handle));
        l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, CALL, "settle",
                "(Ljava/lang/Throwable;Ljava/lang/Object;)Ljava/lang/Throwable;", false));
        l.add(new VarInsnNode(Opcodes.ASTORE, pending));
        l.add(skip);
        return l;
    }

    /**
     * {@code aload handle; ifnull skip}, which opens a guarded block (registered for
     * {@link DeadCheckRemover}).
     */
    private InsnList guard(FutureVariable v, LabelNode skip) {
        VarInsnNode load = new VarInsnNode(Opcodes.ALOAD, v.handle);
        guards.add(new DeadCheckRemover.Guard(load, skip));
        InsnList l = new InsnList();
        l.add(load);
        l.add(new JumpInsnNode(Opcodes.IFNULL, skip));
        return l;
    }

    // ------------------------------------------------------------------ helpers

    private List<Type> argumentTypes(MethodInsnNode call) {
        List<Type> params = new ArrayList<>();
        if (call.getOpcode() != Opcodes.INVOKESTATIC) {
            params.add(call.getOpcode() == Opcodes.INVOKESPECIAL ? Type.getObjectType(cn.name)
                    : Type.getObjectType(call.owner));
        }
        params.addAll(List.of(Type.getArgumentTypes(call.desc)));
        return params;
    }

    private boolean inScope(FutureVariable v, AbstractInsnNode i) {
        int p = pos.get(i);
        for (LabelNode[] r : v.ranges) {
            if (pos.get(r[0]) <= p && p < pos.get(r[1])) {
                return true;
            }
        }
        return false;
    }

    /** The labels a jump or switch may go to, each once. */
    static List<LabelNode> targets(AbstractInsnNode i) {
        if (i instanceof JumpInsnNode j) {
            return List.of(j.label);
        }
        List<LabelNode> t = new ArrayList<>();
        if (i instanceof TableSwitchInsnNode s) {
            t.add(s.dflt);
            t.addAll(s.labels);
        } else if (i instanceof LookupSwitchInsnNode s) {
            t.add(s.dflt);
            t.addAll(s.labels);
        }
        return t.stream().distinct().toList();
    }

    private static void redirect(AbstractInsnNode i, LabelNode from, LabelNode to) {
        if (i instanceof JumpInsnNode j) {
            j.label = to;
        } else if (i instanceof TableSwitchInsnNode s) {
            if (s.dflt == from) {
                s.dflt = to;
            }
            s.labels.replaceAll(l -> l == from ? to : l);
        } else if (i instanceof LookupSwitchInsnNode s) {
            if (s.dflt == from) {
                s.dflt = to;
            }
            s.labels.replaceAll(l -> l == from ? to : l);
        }
    }

    private static boolean fallsThrough(AbstractInsnNode i) {
        int op = i.getOpcode();
        return op != Opcodes.GOTO && op != Opcodes.ATHROW && !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN)
                && !(i instanceof TableSwitchInsnNode) && !(i instanceof LookupSwitchInsnNode);
    }

    private static AbstractInsnNode defaultValue(int storeOp) {
        return new InsnNode(switch (storeOp) {
            case Opcodes.LSTORE -> Opcodes.LCONST_0;
            case Opcodes.FSTORE -> Opcodes.FCONST_0;
            case Opcodes.DSTORE -> Opcodes.DCONST_0;
            case Opcodes.ASTORE -> Opcodes.ACONST_NULL;
            default -> Opcodes.ICONST_0;
        });
    }

    static InsnList toBits(Type t) {
        InsnList l = new InsnList();
        switch (t.getSort()) {
            case Type.LONG -> { }
            case Type.FLOAT -> {
                l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "floatToRawIntBits", "(F)I", false));
                l.add(new InsnNode(Opcodes.I2L));
            }
            case Type.DOUBLE -> l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double",
                    "doubleToRawLongBits", "(D)J", false));
            default -> l.add(new InsnNode(Opcodes.I2L));
        }
        return l;
    }

    static InsnList fromBits(Type t) {
        InsnList l = new InsnList();
        switch (t.getSort()) {
            case Type.LONG -> { }
            case Type.FLOAT -> {
                l.add(new InsnNode(Opcodes.L2I));
                l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Float", "intBitsToFloat", "(I)F", false));
            }
            case Type.DOUBLE -> l.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/Double",
                    "longBitsToDouble", "(J)D", false));
            default -> l.add(new InsnNode(Opcodes.L2I));
        }
        return l;
    }

    private static AbstractInsnNode pushInt(int v) {
        if (v <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + v);
        }
        if (v <= Short.MAX_VALUE) {
            return new IntInsnNode(v <= Byte.MAX_VALUE ? Opcodes.BIPUSH : Opcodes.SIPUSH, v);
        }
        return new LdcInsnNode(v);
    }
}
