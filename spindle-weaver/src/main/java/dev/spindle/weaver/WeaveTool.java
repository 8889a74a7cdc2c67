package dev.spindle.weaver;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line weaver: {@code ./spindle weave DIR|JAR [--out DIR|JAR] [--classpath PATH]
 * [--unsign]}. Rewrites class files offline, prints what it wove (class, method, futures found)
 * and what it refused and why; exits 1 (writing nothing) if anything was refused or unreadable,
 * 2 on bad arguments.
 */
public final class WeaveTool {
    private WeaveTool() {
    }

    /**
     * @param args see the class comment
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the tool.
     *
     * @param args arguments
     * @param out  where the report goes
     * @param err  where errors go
     * @return the exit code: 0 done, 1 refused, 2 bad arguments or I/O failure
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path input = null;
        Path output = null;
        String classpath = "";
        boolean unsign = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--out", "-o" -> {
                    if (++i >= args.length) {
                        return usage(err, "--out needs a directory or jar");
                    }
                    output = Path.of(args[i]);
                }
                case "--classpath", "-cp" -> {
                    if (++i >= args.length) {
                        return usage(err, "--classpath needs a path");
                    }
                    classpath = args[i];
                }
                case "--unsign" -> unsign = true;
                case "--help", "-h" -> {
                    usage(out, null);
                    return 0;
                }
                default -> {
                    if (a.startsWith("-") || input != null) {
                        return usage(err, "unexpected argument '" + a + "'");
                    }
                    input = Path.of(a);
                }
            }
        }
        if (input == null) {
            return usage(err, "which directory or jar to weave?");
        }
        return run(input, output, classpath, unsign, out, err);
    }

    /**
     * Runs the tool on arguments already parsed (the {@code ./spindle weave} command line parses
     * its own).
     *
     * @param input     the directory or jar to weave
     * @param output    where to write, or null to weave in place
     * @param classpath the classes the input refers to, separated by the path separator ("" for none)
     * @param unsign    whether a signed jar is woven, dropping its signatures
     * @param out       where the report goes
     * @param err       where errors go
     * @return the exit code: 0 done, 1 refused, 2 I/O failure
     */
    public static int run(Path input, Path output, String classpath, boolean unsign, PrintStream out, PrintStream err) {
        try (URLClassLoader cp = new URLClassLoader(urls(classpath), WeaveTool.class.getClassLoader())) {
            ClassFileTree.Report r = ClassFileTree.weave(input, output, ClassHierarchy.ofLoader(cp),
                    new ClassFileTree.Options().unsign(unsign));
            int futures = 0;
            for (WovenMethod m : r.woven()) {
                out.println("woven    " + m);
                futures += m.calls();
            }
            for (String f : r.failures()) {
                err.println("refused  " + f);
            }
            if (!r.ok()) {
                err.println("spindle weave: " + r.failures().size() + " problem(s); nothing was written");
                return 1;
            }
            out.println("spindle weave: " + r.woven().size() + " method(s), " + futures + " potential future(s) in "
                    + input + (output != null ? " -> " + output : " (in place)"));
            return 0;
        } catch (IOException e) {
            err.println("spindle weave: " + e.getMessage());
            return 2;
        }
    }

    private static URL[] urls(String classpath) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String p : classpath.split(File.pathSeparator)) {
            if (!p.isBlank()) {
                urls.add(Path.of(p).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }

    private static int usage(PrintStream s, String problem) {
        if (problem != null) {
            s.println("spindle weave: " + problem);
        }
        s.println("usage: spindle weave DIR|JAR [--out DIR|JAR] [--classpath PATH] [--unsign]");
        s.println("  rewrites the @Future variables of every class file; prints what it wove and what it refused");
        return problem == null ? 0 : 2;
    }
}
