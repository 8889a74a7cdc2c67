package dev.spindle.bench;

import dev.spindle.weaver.WeaveTool;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code ./spindle weave DIR|JAR [--out DIR|JAR] [--classpath PATH] [--unsign]}: the offline weaver. */
@Command(name = "weave", description = "Rewrite the @Future variables of class files offline (a directory or a jar).",
        mixinStandardHelpOptions = false)
public final class WeaveCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", description = "DIR|JAR [--out DIR|JAR] [--classpath PATH] [--unsign]")
    List<String> args = List.of();

    @Override
    public Integer call() {
        return WeaveTool.run(args.toArray(String[]::new), System.out, System.err);
    }
}
