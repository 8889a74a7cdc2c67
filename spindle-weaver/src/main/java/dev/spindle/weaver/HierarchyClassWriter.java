package dev.spindle.weaver;

import org.objectweb.asm.ClassWriter;

/** A class writer that computes frames from a {@link ClassHierarchy}: it never loads a class. */
final class HierarchyClassWriter extends ClassWriter {
    private final ClassHierarchy hierarchy;

    HierarchyClassWriter(ClassHierarchy hierarchy) {
        super(COMPUTE_FRAMES);
        this.hierarchy = hierarchy;
    }

    @Override
    protected String getCommonSuperClass(String type1, String type2) {
        return hierarchy.commonSuperClass(type1, type2);
    }

    @Override
    protected ClassLoader getClassLoader() {
        throw new UnsupportedOperationException("the weaver never loads classes");
    }
}
