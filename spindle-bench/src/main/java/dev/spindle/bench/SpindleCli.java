package dev.spindle.bench;

import dev.spindle.bench.runner.BenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ./spindle} command line: {@code spindle bench ...}. */
@Command(name = "spindle", mixinStandardHelpOptions = true, version = "spindle 0.1.0",
        description = "Spindle's tools: the benchmark runner, the @Future weaver, and a reader of compiled code.",
        subcommands = {BenchCommand.class, dev.spindle.bench.runner.TargetsCommand.class, dev.spindle.bench.runner.TuneCommand.class,
                WeaveCommand.class, dev.spindle.bench.jit.MachCodeCommand.class, CommandLine.HelpCommand.class})
public final class SpindleCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Entry point.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /**
     * Runs the command line without exiting (for tests).
     *
     * @param args command-line arguments
     * @return the exit code
     */
    public static int execute(String... args) {
        return new CommandLine(new SpindleCli()).execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: bench, targets, tune, weave or machcode");
    }
}
