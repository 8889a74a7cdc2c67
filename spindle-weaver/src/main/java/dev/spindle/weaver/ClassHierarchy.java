package dev.spindle.weaver;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Super classes of classes, read from their class files — never by loading them — so stack-map
 * frames can be computed for a woven class without initializing anything. A lookup that cannot
 * find a class fails with {@link TypeNotFoundException} naming it.
 */
public final class ClassHierarchy {
    /** A class's name, super class and whether it is an interface. */
    private record Info(String superName, boolean isInterface) {
    }

    private final Function<String, byte[]> classFiles;
    private final Map<String, Info> cache = new HashMap<>();

    /**
     * @param classFiles internal name → the class file's bytes, or null if it has none
     */
    public ClassHierarchy(Function<String, byte[]> classFiles) {
        this.classFiles = Objects.requireNonNull(classFiles, "classFiles");
    }

    /**
     * Class files found as resources of a class loader (reading a resource does not load a class),
     * the JDK's own through the platform loader.
     *
     * @param loader the loader, or null for the JDK's classes only
     * @return the hierarchy
     */
    public static ClassHierarchy ofLoader(ClassLoader loader) {
        return new ClassHierarchy(name -> readResource(loader, name + ".class"));
    }

    /**
     * This hierarchy, looking first in {@code first} and then here.
     *
     * @param first internal name → bytes, or null
     * @return the combined hierarchy
     */
    public ClassHierarchy withFirst(Function<String, byte[]> first) {
        Function<String, byte[]> rest = classFiles;
        return new ClassHierarchy(name -> {
            byte[] b = first.apply(name);
            return b != null ? b : rest.apply(name);
        });
    }

    static byte[] readResource(ClassLoader loader, String path) {
        try {
            InputStream in = loader != null ? loader.getResourceAsStream(path) : null;
            if (in == null) {
                in = ClassLoader.getPlatformClassLoader().getResourceAsStream(path);
            }
            if (in == null) {
                in = Object.class.getResourceAsStream("/" + path);
            }
            if (in == null) {
                return null;
            }
            try (InputStream s = in) {
                return s.readAllBytes();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path, e);
        }
    }

    private Info info(String name) {
        Info i = cache.get(name);
        if (i == null) {
            byte[] b = classFiles.apply(name);
            if (b == null) {
                throw new TypeNotFoundException(name);
            }
            ClassReader r = new ClassReader(b);
            i = new Info(r.getSuperName(), (r.getAccess() & Opcodes.ACC_INTERFACE) != 0);
            cache.put(name, i);
        }
        return i;
    }

    /**
     * The most specific common super class of two classes, as the verifier merges them
     * (interfaces merge to Object).
     *
     * @param a internal name
     * @param b internal name
     * @return internal name of the common super class
     */
    public String commonSuperClass(String a, String b) {
        if (a.equals(b)) {
            return a;
        }
        if (a.equals("java/lang/Object") || b.equals("java/lang/Object")) {
            return "java/lang/Object";
        }
        if (info(a).isInterface() || info(b).isInterface()) {
            return "java/lang/Object";
        }
        List<String> chainA = chain(a);
        for (String s : chain(b)) {
            if (chainA.contains(s)) {
                return s;
            }
        }
        return "java/lang/Object";
    }

    private List<String> chain(String name) {
        List<String> c = new ArrayList<>();
        for (String n = name; n != null; n = info(n).superName()) {
            c.add(n);
            if (n.equals("java/lang/Object")) {
                break;
            }
        }
        return c;
    }

    /** A class needed to compute stack-map frames was not found on the weaving class path. */
    public static final class TypeNotFoundException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String type;

        TypeNotFoundException(String type) {
            super("class " + type.replace('/', '.') + " not found on the weaving class path "
                    + "(needed to compute stack-map frames)");
            this.type = type;
        }

        /**
         * @return the internal name that was not found
         */
        public String type() {
            return type;
        }
    }
}
