package dev.spindle.bench.jit;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code ./spindle machcode LOG}: what the JIT compiled a method into, read from a JVM's log on a
 * machine without {@code hsdis}. Start the program with
 * {@code -XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=quiet -XX:CompileCommand=print,pkg.Class::method},
 * its output in LOG; this prints the last C2 compilation of the method there as assembly, with
 * HotSpot's notes (the Java frames behind each call and safepoint) in place.
 */
@Command(name = "machcode", mixinStandardHelpOptions = true,
        description = {"Disassemble a method's compiled code from a JVM log printed without hsdis.",
                "Run the JVM with -XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=quiet "
                        + "-XX:CompileCommand=print,pkg.Class::method and save its output as LOG; "
                        + "this prints the last C2 compilation in LOG as assembly (GNU objdump), "
                        + "HotSpot's notes on ';;' lines before the instruction they belong to."})
public final class MachCodeCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "LOG", description = "The JVM's output.")
    Path log;

    @Option(names = "--method", paramLabel = "TEXT",
            description = "Only compiled methods whose name (pkg.Class::method) contains TEXT.")
    String method;

    @Option(names = "--tier", paramLabel = "c1|c2", defaultValue = "c2",
            description = "Which compiler's code (default: ${DEFAULT-VALUE}).")
    String tier;

    @Option(names = "--all", description = "Every matching compilation, in the order printed, not only the last.")
    boolean all;

    @Option(names = "--list", description = "List the compilations in LOG (tier, compile id, method, bytes) and disassemble nothing.")
    boolean list;

    @Option(names = "--arch", paramLabel = "ARCH",
            description = "The architecture the log came from: amd64 or aarch64 (default: this JVM's, ${DEFAULT-VALUE}).",
            defaultValue = "${sys:os.arch}")
    String arch;

    @Option(names = "--objdump", paramLabel = "PATH", defaultValue = "objdump",
            description = "GNU objdump to run (default: ${DEFAULT-VALUE} on PATH).")
    String objdump;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        String t = tier.toLowerCase(Locale.ROOT);
        if (!t.equals("c1") && !t.equals("c2")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tier must be c1 or c2, not '" + tier + "'");
        }
        List<CompiledMethodDump> dumps;
        try {
            dumps = CompiledMethodDump.parse(Files.readAllLines(log, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "cannot read " + log + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), log + ": " + e.getMessage());
        }
        if (list) {
            for (CompiledMethodDump d : dumps) {
                System.out.printf(Locale.ROOT, "%s  compile %5d  %6d bytes  %s%n", d.tier(), d.compileId(), d.code().length, d.method());
            }
            return 0;
        }
        List<CompiledMethodDump> chosen = dumps.stream()
                .filter(d -> d.tier().equals(t) && (method == null || d.method().contains(method)))
                .collect(Collectors.toList());
        if (chosen.isEmpty()) {
            String present = dumps.stream().map(d -> d.tier() + " " + d.method()).distinct().collect(Collectors.joining(", "));
            throw new CommandLine.ParameterException(spec.commandLine(), log + " has no " + t + " compilation"
                    + (method == null ? "" : " of a method containing '" + method + "'")
                    + (present.isEmpty() ? " (nor any other: was the JVM run with -XX:CompileCommand=print,…?)" : "; it has: " + present));
        }
        String machine;
        try {
            machine = Disassembler.machine(arch);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Disassembler disassembler = new Disassembler(objdump);
        for (CompiledMethodDump d : all ? chosen : List.of(chosen.get(chosen.size() - 1))) {
            System.out.printf(Locale.ROOT, "== %s compile %d: %s, %d bytes at 0x%x%n", d.tier(), d.compileId(), d.method(),
                    d.code().length, d.start());
            try {
                System.out.print(disassembler.listing(d, machine));
            } catch (IOException e) {
                spec.commandLine().getErr().println("spindle machcode: " + e.getMessage());
                return 1;
            }
        }
        return 0;
    }
}
