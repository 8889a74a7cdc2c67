package dev.spindle.bench;

import dev.spindle.weaver.WeaveTool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ./spindle weave DIR|JAR [--out DIR|JAR] [--classpath PATH] [--unsign]}: the offline weaver
 * ({@link WeaveTool}, which does the work and prints the report). The options are declared here
 * so that picocli accepts them and lists them in {@code --help}.
 */
@Command(name = "weave", mixinStandardHelpOptions = true,
        description = "Rewrite the @Future variables of class files offline (a directory or a jar); "
                + "print what was woven and what was refused and why. Exit 0 done, 1 refused (nothing written), "
                + "2 bad arguments or I/O failure.")
public final class WeaveCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR|JAR", description = "the class files to weave")
    String input;

    @Option(names = {"--out", "-o"}, paramLabel = "DIR|JAR",
            description = "where to write the woven classes (default: in place)")
    String out;

    @Option(names = {"--classpath", "-cp"}, paramLabel = "PATH",
            description = "the classes the input's classes refer to, for stack-map frames (never loaded)")
    String classpath;

    @Option(names = "--unsign", description = "weave a signed jar, dropping its signatures (refused otherwise)")
    boolean unsign;

    @Override
    public Integer call() {
        return WeaveTool.run(Path.of(input), out == null ? null : Path.of(out), classpath == null ? "" : classpath,
                unsign, System.out, System.err);
    }
}
