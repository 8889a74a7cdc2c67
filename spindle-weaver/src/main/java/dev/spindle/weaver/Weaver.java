package dev.spindle.weaver;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassTooLargeException;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rewrites the {@code @Future} local variables of a class file onto Spindle's runtime (see
 * {@link dev.spindle.weaver} and ARCHITECTURE §10). A pure function of the bytes: it loads and
 * initializes nothing (super classes for stack-map frames come from a {@link ClassHierarchy}),
 * and the same bytes in give the same bytes out. A woven class carries an invisible
 * {@code @dev.spindle.weaver.Woven} marker, so weaving it again changes nothing.
 *
 * <pre>{@code
 * Weaver weaver = new Weaver(ClassHierarchy.ofLoader(getClass().getClassLoader()));
 * WeaveResult r = weaver.weave(classFileBytes);
 * if (r.changed()) Files.write(path, r.bytes());
 * r.refusals().forEach(System.err::println);
 * }</pre>
 */
public final class Weaver {
    /** The marker a woven class carries (invisible at run time). */
    public static final String WOVEN_DESC = "Ldev/spindle/weaver/Woven;";
    /** The oldest class file version the weaver rewrites (Java 8: invokedynamic lambdas). */
    static final int MIN_VERSION = Opcodes.V1_8;

    private final ClassHierarchy hierarchy;

    /**
     * @param hierarchy where super classes are read from when frames are computed
     */
    public Weaver(ClassHierarchy hierarchy) {
        this.hierarchy = Objects.requireNonNull(hierarchy, "hierarchy");
    }

    /**
     * Weaves one class file.
     *
     * @param classFile the class file's bytes
     * @return what was done; {@link WeaveResult#bytes()} is null if nothing changed
     * @throws InvalidClassFileException if the bytes are not a class file this weaver can read
     */
    public WeaveResult weave(byte[] classFile) {
        return weave(classFile, List.of(), List.of());
    }

    /**
     * Weaves one class file, leaving the methods of {@code tooLarge} as they are and refusing them:
     * their woven code would exceed the JVM's limit of 65535 bytes per method. Which ones do is
     * known only when the class is written, so {@link #weave(byte[])} writes it, and on ASM's
     * {@link MethodTooLargeException} weaves it again without that method — a method is rewritten
     * whole or not at all. A method split only for its object-API futures ({@link SerialFutureSplit})
     * is an optimization, not a request: one that would be too large is left as written, in
     * {@code unsplit} ({@code name + desc}), and refused nothing.
     */
    private WeaveResult weave(byte[] classFile, List<Refusal> tooLarge, List<String> unsplit) {
        ClassReader reader;
        ClassNode cn = new ClassNode();
        try {
            reader = new ClassReader(classFile);
            reader.accept(cn, 0);
        } catch (IllegalArgumentException e) {
            String version = classFile.length >= 8 ? " (class file major version "
                    + (((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff)) + ")" : "";
            throw new InvalidClassFileException("unsupported class file" + version
                    + ": newer than this weaver's ASM reads (" + e.getMessage() + ")", e);
        } catch (RuntimeException e) {
            throw new InvalidClassFileException("not a valid class file: " + e, e);
        }
        String className = cn.name.replace('/', '.');
        List<WovenMethod> woven = new ArrayList<>();
        List<Refusal> refusals = new ArrayList<>();
        if (isWoven(cn)) {
            return new WeaveResult(className, null, woven, refusals, true);
        }
        for (String f : FutureVariableFinder.annotatedFields(cn)) {
            refusals.add(new Refusal(className, null, -1, "@Future on field " + f
                    + ": it applies only to local variables initialized by a method call"));
        }
        List<MethodNode> targets = new ArrayList<>();
        refusals.addAll(tooLarge);
        for (MethodNode mn : cn.methods) {
            if (mn.instructions.size() > 0 && (FutureVariableFinder.mentions(mn)
                    || SerialFutureSplit.mentions(mn) && !unsplit.contains(mn.name + mn.desc)) && !refused(tooLarge, mn)) {
                targets.add(mn);
            }
        }
        if (targets.isEmpty()) {
            return new WeaveResult(className, null, woven, refusals, false);
        }
        if ((cn.version & 0xffff) < MIN_VERSION) {
            refusals.add(new Refusal(className, null, -1, "class file version " + (cn.version & 0xffff)
                    + " is older than Java 8; recompile with --release 8 or newer"));
            return new WeaveResult(className, null, woven, refusals, false);
        }
        int site = 0;
        List<MethodNode> bodies = new ArrayList<>();
        List<MethodNode> rewritten = new ArrayList<>();            // parallel to woven
        List<List<MethodNode>> copies = new ArrayList<>();         // each one's generated methods
        List<BaseCaseAtCall.Prefix> baseCases = new ArrayList<>();
        for (MethodNode mn : targets) {
            BaseCaseAtCall.Prefix p = BaseCaseAtCall.of(cn, mn);    // read before weaving changes mn
            if (p != null) {
                baseCases.add(p);
            }
        }
        for (MethodNode mn : targets) {
            String method = mn.name + mn.desc;
            try {
                List<FutureVariable> vars = FutureVariableFinder.mentions(mn) ? FutureVariableFinder.find(mn) : List.of();
                if (vars.isEmpty()) {
                    SerialFutureSplit.Result split = SerialFutureSplit.split(cn, mn);
                    if (split != null) {
                        bodies.add(split.deferring());
                        rewritten.add(mn);
                        copies.add(List.of(split.deferring()));
                        woven.add(new WovenMethod(className, method, 0, 0, split.inPlace()));
                    }
                    continue;
                }
                MethodWeaver w = new MethodWeaver(cn, mn, vars, site);
                var thisInit = w.check();
                w.rewrite(thisInit);
                site = w.nextSite();
                List<MethodNode> generated = new ArrayList<>(w.bodies);
                MethodNode deferring = DeferringSplit.split(cn, mn, w);
                if (deferring != null) {
                    generated.add(deferring);
                }
                bodies.addAll(generated);
                int calls = 0;
                for (FutureVariable v : vars) {
                    calls += v.sites.size();
                }
                rewritten.add(mn);
                copies.add(generated);
                woven.add(new WovenMethod(className, method, vars.size(), calls));
            } catch (UnsupportedShapeException e) {
                refusals.add(new Refusal(className, method, e.line, e.getMessage()));
            }
        }
        if (woven.isEmpty()) {
            return new WeaveResult(className, null, woven, refusals, false);
        }
        // refused methods were analysed but never changed; the class is still written, so the
        // agent runs the supported ones (the plugin and the CLI fail the build instead)
        cn.methods.addAll(bodies);
        for (int m = 0; m < rewritten.size(); m++) {
            int n = BaseCaseAtCall.rewrite(cn.name, rewritten.get(m), baseCases);
            for (MethodNode copy : copies.get(m)) {
                n += BaseCaseAtCall.rewrite(cn.name, copy, baseCases);
            }
            woven.set(m, woven.get(m).withBaseCases(n));
        }
        cn.methods.addAll(WorkerParameter.apply(cn, rewritten));
        if (cn.invisibleAnnotations == null) {
            cn.invisibleAnnotations = new ArrayList<>();
        }
        cn.invisibleAnnotations.add(new AnnotationNode(WOVEN_DESC));
        HierarchyClassWriter cw = new HierarchyClassWriter(hierarchy);
        try {
            cn.accept(cw);
            return new WeaveResult(className, cw.toByteArray(), woven, refusals, false);
        } catch (ClassHierarchy.TypeNotFoundException e) {
            if (onlySplits(woven)) {
                return new WeaveResult(className, null, List.of(), refusals, false);   // only optimizations: left as written
            }
            List<Refusal> all = new ArrayList<>(refusals);
            all.add(new Refusal(className, null, -1, e.getMessage()));
            return new WeaveResult(className, null, List.of(), all, false);
        } catch (MethodTooLargeException e) {
            MethodNode original = originalOf(targets, e.getMethodName(), e.getDescriptor());
            if (original == null || refused(tooLarge, original)) {
                throw new IllegalStateException("woven " + className + "." + e.getMethodName() + e.getDescriptor()
                        + " is too large and is not a method the weaver rewrote", e);
            }
            if (!FutureVariableFinder.mentions(original)) {
                List<String> more = new ArrayList<>(unsplit);
                more.add(original.name + original.desc);
                return weave(classFile, tooLarge, more);
            }
            List<Refusal> more = new ArrayList<>(tooLarge);
            more.add(new Refusal(className, original.name + original.desc, firstLine(original),
                    "woven, its code would take " + e.getCodeSize() + " bytes, over the JVM's limit of 65535 bytes"
                            + " per method; move part of it into a method of its own"));
            return weave(classFile, more, unsplit);
        } catch (ClassTooLargeException e) {
            if (onlySplits(woven)) {
                return new WeaveResult(className, null, List.of(), refusals, false);
            }
            List<Refusal> all = new ArrayList<>(refusals);
            all.add(new Refusal(className, null, -1, "woven, the class would need " + e.getConstantPoolCount()
                    + " constant pool entries, over the JVM's limit of 65535; split the class"));
            return new WeaveResult(className, null, List.of(), all, false);
        }
    }

    /**
     * The weaver's base-case rewrite alone ({@code BaseCaseAtCall}) on the methods that have
     * {@code @Future} variables or object-API futures, with no future woven: what the rewrite by
     * itself does to the serial code. For measurement only (the directive suite's
     * {@code seq-base-case} variant), so that a woven program's time can be read against the
     * sequential code given the same rewrite.
     *
     * @param classFile the unwoven class file's bytes
     * @return the rewritten bytes, or null if no call was rewritten or the class is already woven
     * @throws InvalidClassFileException if the bytes are not a class file this weaver can read
     */
    public byte[] baseCasesAtCallsOnly(byte[] classFile) {
        ClassNode cn = new ClassNode();
        try {
            new ClassReader(classFile).accept(cn, 0);
        } catch (RuntimeException e) {
            throw new InvalidClassFileException("not a class file this weaver reads: " + e, e);
        }
        if (isWoven(cn)) {
            return null;
        }
        List<MethodNode> targets = new ArrayList<>();
        List<BaseCaseAtCall.Prefix> baseCases = new ArrayList<>();
        for (MethodNode mn : cn.methods) {
            if (mn.instructions.size() > 0 && (FutureVariableFinder.mentions(mn) || SerialFutureSplit.mentions(mn))) {
                targets.add(mn);
                BaseCaseAtCall.Prefix p = BaseCaseAtCall.of(cn, mn);
                if (p != null) {
                    baseCases.add(p);
                }
            }
        }
        int n = 0;
        for (MethodNode mn : targets) {
            n += BaseCaseAtCall.rewrite(cn.name, mn, baseCases);
        }
        if (n == 0) {
            return null;
        }
        HierarchyClassWriter cw = new HierarchyClassWriter(hierarchy);
        cn.accept(cw);
        return cw.toByteArray();
    }

    private static boolean refused(List<Refusal> refusals, MethodNode mn) {
        String method = mn.name + mn.desc;
        for (Refusal r : refusals) {
            if (method.equals(r.method())) {
                return true;
            }
        }
        return false;
    }

    /** True if every method woven was split only for its object-API futures: an optimization, not a request. */
    private static boolean onlySplits(List<WovenMethod> woven) {
        return woven.stream().allMatch(m -> m.variables() == 0);
    }

    /**
     * The method the weaver rewrote whose woven code is {@code name desc}: the method itself, or its
     * deferring copy (the same name, its parameters followed by a {@code FutureCall} or
     * {@code SerialFutures} marker and perhaps more; see {@link DeferringSplit} and
     * {@link SerialFutureSplit}), or its worker variant ({@link WorkerParameter}).
     */
    private static MethodNode originalOf(List<MethodNode> targets, String name, String desc) {
        for (MethodNode mn : targets) {
            String params = mn.desc.substring(0, mn.desc.indexOf(')'));
            if (mn.name.equals(name) && (mn.desc.equals(desc) || desc.startsWith(params + DeferringSplit.MARKER)
                    || desc.startsWith(params + SerialFutureSplit.MARKER) || desc.startsWith(params + WorkerParameter.MARKER))) {
                return mn;
            }
        }
        return null;
    }

    private static int firstLine(MethodNode mn) {
        for (var insn = mn.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof LineNumberNode ln) {
                return ln.line;
            }
        }
        return -1;
    }

    /**
     * True if the class file carries the woven marker.
     *
     * @param classFile bytes
     * @return whether it was woven already
     */
    public static boolean isWoven(byte[] classFile) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, ClassReader.SKIP_CODE);
        return isWoven(cn);
    }

    private static boolean isWoven(ClassNode cn) {
        if (cn.invisibleAnnotations != null) {
            for (AnnotationNode a : cn.invisibleAnnotations) {
                if (WOVEN_DESC.equals(a.desc)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The input is not a class file the weaver can read (corrupt, or newer than its ASM). */
    public static final class InvalidClassFileException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidClassFileException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
