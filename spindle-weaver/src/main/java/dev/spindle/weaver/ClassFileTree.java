package dev.spindle.weaver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;

/**
 * Weaves every class file of a directory or a jar, all or nothing: every class is analysed first;
 * if any is refused or unreadable, nothing is written and {@link Report#failures()} says why —
 * the input is left exactly as it was. Otherwise the woven classes are written in place or to an
 * output directory or jar (other files copied unchanged).
 *
 * <pre>{@code
 * ClassFileTree.Report r = ClassFileTree.weave(Path.of("target/classes"), null,
 *         ClassHierarchy.ofLoader(ClassLoader.getSystemClassLoader()), new ClassFileTree.Options());
 * if (!r.ok()) throw new IllegalStateException(String.join("\n", r.failures()));
 * }</pre>
 */
public final class ClassFileTree {
    private ClassFileTree() {
    }

    /** Options of a run. */
    public static final class Options {
        boolean unsign;
        Path unwovenCopies;

        /**
         * Weave a signed jar by dropping its signature (default: refuse it).
         *
         * @param unsign whether to unsign
         * @return this
         */
        public Options unsign(boolean unsign) {
            this.unsign = unsign;
            return this;
        }

        /**
         * Also keep each woven class's original bytes under this directory (same relative path).
         *
         * @param dir the directory, or null
         * @return this
         */
        public Options unwovenCopies(Path dir) {
            this.unwovenCopies = dir;
            return this;
        }
    }

    /**
     * What a run did.
     *
     * @param results  one per class file that was read
     * @param failures refusals and unreadable files, one line each; empty if the run succeeded
     * @param written  true if output was written
     */
    public record Report(List<WeaveResult> results, List<String> failures, boolean written) {
        /**
         * @return true if nothing was refused
         */
        public boolean ok() {
            return failures.isEmpty();
        }

        /**
         * @return the methods woven
         */
        public List<WovenMethod> woven() {
            List<WovenMethod> w = new ArrayList<>();
            for (WeaveResult r : results) {
                w.addAll(r.woven());
            }
            return w;
        }
    }

    /**
     * Weaves a directory or a jar.
     *
     * @param input     a directory of class files, or a jar
     * @param output    where to write (a directory for a directory, a directory or jar for a jar);
     *                  null to rewrite the input in place
     * @param classpath where classes outside the input are read from (libraries, the JDK)
     * @param options   options
     * @return the report
     * @throws IOException if reading or writing fails
     */
    public static Report weave(Path input, Path output, ClassHierarchy classpath, Options options) throws IOException {
        if (Files.isDirectory(input)) {
            return weaveDirectory(input, output == null ? input : output, classpath, options);
        }
        if (Files.isRegularFile(input)) {
            return weaveJar(input, output == null ? input : output, classpath, options);
        }
        throw new IOException("no such directory or jar: " + input);
    }

    // ------------------------------------------------------------------ directories

    private static Report weaveDirectory(Path dir, Path out, ClassHierarchy classpath, Options options)
            throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
            }
        }
        Map<String, byte[]> woven = new LinkedHashMap<>();
        Report r = weaveAll(files, classpath, woven);
        if (!r.ok()) {
            return r;
        }
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            Path target = out.resolve(e.getKey());
            byte[] w = woven.get(e.getKey());
            if (w != null && options.unwovenCopies != null) {
                Path copy = options.unwovenCopies.resolve(e.getKey());
                Files.createDirectories(copy.getParent());
                Files.write(copy, e.getValue());
            }
            if (w != null) {
                writeAtomically(target, w);
            } else if (!out.equals(dir)) {
                Files.createDirectories(target.getParent());
                Files.write(target, e.getValue());
            }
        }
        return new Report(r.results(), r.failures(), true);
    }

    // ------------------------------------------------------------------ jars

    private static Report weaveJar(Path jar, Path out, ClassHierarchy classpath, Options options) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        Manifest manifest;
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar), false)) {
            manifest = in.getManifest();
            for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
                if (!e.isDirectory()) {
                    entries.put(e.getName(), in.readAllBytes());
                }
            }
        } catch (ZipException e) {
            return new Report(List.of(), List.of(jar + ": not a jar (" + e.getMessage() + ")"), false);
        }
        List<String> signatures = entries.keySet().stream().filter(ClassFileTree::isSignatureFile).toList();
        if (!signatures.isEmpty() && !options.unsign) {
            return new Report(List.of(), List.of(jar + ": the jar is signed (" + signatures.get(0)
                    + "); weaving would break its signature. Weave the unsigned classes, or pass --unsign "
                    + "(plugin: <unsign>true</unsign>) to drop the signature"), false);
        }
        Map<String, byte[]> woven = new LinkedHashMap<>();
        Report r = weaveAll(entries, classpath, woven);
        if (!r.ok()) {
            return r;
        }
        if (manifest != null && !signatures.isEmpty()) {
            for (Attributes a : manifest.getEntries().values()) {
                a.keySet().removeIf(k -> k.toString().toUpperCase(Locale.ROOT).endsWith("-DIGEST"));
            }
            manifest.getEntries().values().removeIf(Attributes::isEmpty);
        }
        if (Files.isDirectory(out)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                if (!isSignatureFile(e.getKey())) {
                    Path target = out.resolve(e.getKey());
                    byte[] w = woven.get(e.getKey());
                    writeAtomically(target, w != null ? w : e.getValue());
                }
            }
            return new Report(r.results(), r.failures(), true);
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (JarOutputStream jo = manifest != null ? new JarOutputStream(buf, manifest) : new JarOutputStream(buf)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                if (isSignatureFile(e.getKey()) || e.getKey().equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                ZipEntry z = new ZipEntry(e.getKey());
                z.setTime(0L);                             // deterministic output
                jo.putNextEntry(z);
                byte[] w = woven.get(e.getKey());
                jo.write(w != null ? w : e.getValue());
                jo.closeEntry();
            }
        }
        writeAtomically(out, buf.toByteArray());
        return new Report(r.results(), r.failures(), true);
    }

    private static boolean isSignatureFile(String name) {
        String n = name.toUpperCase(Locale.ROOT);
        return n.startsWith("META-INF/") && n.indexOf('/', 9) < 0
                && (n.endsWith(".SF") || n.endsWith(".RSA") || n.endsWith(".DSA") || n.endsWith(".EC")
                || n.startsWith("META-INF/SIG-"));
    }

    // ------------------------------------------------------------------ common

    private static Report weaveAll(Map<String, byte[]> files, ClassHierarchy classpath, Map<String, byte[]> woven) {
        Map<String, byte[]> byName = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (e.getKey().endsWith(".class") && !e.getKey().startsWith("META-INF/")) {
                byName.put(e.getKey().substring(0, e.getKey().length() - ".class".length()), e.getValue());
            }
        }
        Weaver weaver = new Weaver(classpath.withFirst(byName::get));
        List<WeaveResult> results = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            if (!e.getKey().endsWith(".class") || e.getKey().startsWith("META-INF/")) {
                continue;
            }
            try {
                WeaveResult r = weaver.weave(e.getValue());
                results.add(r);
                for (Refusal f : r.refusals()) {
                    failures.add(f.toString());
                }
                if (r.changed()) {
                    woven.put(e.getKey(), r.bytes());
                }
            } catch (Weaver.InvalidClassFileException ex) {
                failures.add(e.getKey() + ": " + ex.getMessage());
            }
        }
        return new Report(results, failures, false);
    }

    private static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path parent = target.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = Files.createTempFile(parent, ".spindle-weave", ".tmp");
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
