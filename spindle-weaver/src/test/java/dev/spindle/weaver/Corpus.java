package dev.spindle.weaver;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Test support: compiles Java sources from test resources with javac, and loads class files in isolation. */
final class Corpus {
    private Corpus() {
    }

    /** The directory of a resource folder. */
    static Path resourceDir(String name) {
        URL u = Corpus.class.getClassLoader().getResource(name);
        if (u == null) {
            throw new IllegalStateException("test resource folder " + name + " is missing");
        }
        try {
            return Path.of(u.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Compiles every .java file under {@code sourceDir} against the test class path.
     *
     * @return internal name → class file bytes
     */
    static Map<String, byte[]> compile(Path sourceDir, String... options) {
        try {
            Path out = Files.createTempDirectory("spindle-corpus");
            try {
                List<String> args = new ArrayList<>(List.of(options));
                args.addAll(List.of("--release", "21", "-proc:none", "-d", out.toString(),
                        "-classpath", System.getProperty("java.class.path")));
                try (Stream<Path> s = Files.walk(sourceDir)) {
                    s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> args.add(p.toString()));
                }
                JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
                if (javac == null) {
                    throw new IllegalStateException("no javac in this JVM: run the tests on a JDK, not a JRE");
                }
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int rc = javac.run(null, null, new PrintStream(err, true, StandardCharsets.UTF_8), args.toArray(String[]::new));
                if (rc != 0) {
                    throw new IllegalStateException("javac failed on " + sourceDir + ":\n" + err.toString(StandardCharsets.UTF_8));
                }
                return readClasses(out);
            } finally {
                deleteTree(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes {@code dir} and everything under it: javac's output, once read, is not left in the temp folder. */
    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static Map<String, byte[]> readClasses(Path dir) throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String rel = dir.relativize(p).toString().replace('\\', '/');
                classes.put(rel.substring(0, rel.length() - ".class".length()), Files.readAllBytes(p));
            }
        }
        return classes;
    }

    /** Weaves every class; fails on any refusal. */
    static Map<String, byte[]> weaveAll(Map<String, byte[]> classes) {
        Weaver w = new Weaver(ClassHierarchy.ofLoader(Corpus.class.getClassLoader()).withFirst(classes::get));
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            WeaveResult r = w.weave(e.getValue());
            if (!r.refusals().isEmpty()) {
                throw new AssertionError("refused: " + r.refusals());
            }
            out.put(e.getKey(), r.changed() ? r.bytes() : e.getValue());
        }
        return out;
    }

    /** A class loader that defines the given classes itself (child first) and delegates the rest. */
    static final class Loader extends ClassLoader {
        private final Map<String, byte[]> classes;

        Loader(String name, Map<String, byte[]> classes) {
            super(name, Corpus.class.getClassLoader());
            this.classes = classes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                byte[] b = classes.get(name.replace('.', '/'));
                if (b == null) {
                    return super.loadClass(name, resolve);
                }
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = defineClass(name, b, 0, b.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
