package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Suites;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code spindle bench}: runs suites and writes results.json, results.md and speedup charts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Runs benchmark suites, verifies every answer against the sequential one, "
                + "prints Ts, T1, TP and their ratios, and writes DIR/results.json, DIR/results.md "
                + "and DIR/speedup-<suite>.png.")
public final class BenchCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--suite", required = true, split = ",", paramLabel = "NAME",
            description = "Suite(s) to run, comma separated.")
    List<String> suites;

    @Option(names = "--workers", split = ",", paramLabel = "N",
            description = "Worker counts, comma separated (default: 1 and the available processors).")
    List<String> workers;

    @Option(names = "--size", defaultValue = "default", paramLabel = "small|default|large",
            description = "Problem size (default: ${DEFAULT-VALUE}).")
    String size;

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N", description = "Timed runs per measurement (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", defaultValue = "2", paramLabel = "N",
            description = "Least warm-up runs per measurement (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--warmup-time", defaultValue = "1000", paramLabel = "MS",
            description = "Least warm-up time per measurement in milliseconds, on top of --warmup runs "
                    + "(default: ${DEFAULT-VALUE}; 0 for none).")
    long warmupMillis;

    @Option(names = "--max-warmup", paramLabel = "N",
            description = "Most warm-up runs per measurement: after --warmup runs and --warmup-time, runs are "
                    + "added while the JIT compiled during the last one, up to N runs or 20 s of warm-up "
                    + "(default: 200, or --warmup if larger; equal to --warmup with --warmup-time 0 for a fixed count). "
                    + "A program may need more runs for the JIT (Stress: 16000 parallel loops); they are made past "
                    + "this bound, except with a fixed count.")
    Integer maxWarmup;

    /** Largest --warmup-time: an hour. */
    static final long MAX_WARMUP_MILLIS = 3_600_000L;

    /** Most warm-up runs when --max-warmup is not given. */
    static final int DEFAULT_MAX_WARMUP = 200;

    @Option(names = "--out", defaultValue = "results", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--bench", split = ",", paramLabel = "NAME",
            description = "Only these benchmarks of the suite(s), comma separated (default: all).")
    List<String> benches;

    @Option(names = "--variant", split = ",", paramLabel = "NAME",
            description = "Only these variants besides seq, comma separated (default: all).")
    List<String> variantFilter;

    @Option(names = "--fork", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Measure each benchmark x variant in a fresh JVM, as JMH does (default: ${DEFAULT-VALUE}); "
                    + "--no-fork measures everything in this JVM, where variants sharing code disturb each other's JIT profiles.")
    boolean fork;

    @Option(names = "--forks", defaultValue = "3", paramLabel = "N",
            description = "JVMs per benchmark x variant; their timed runs are pooled (default: ${DEFAULT-VALUE}). "
                    + "Separate JVMs compile the same code differently; pooling forks keeps one lucky or unlucky "
                    + "compilation from deciding a ratio.")
    int forks;

    @Option(names = "--cpu-choice", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run each timed run of a row whose work runs on one thread (seq, a pool of one worker) "
                    + "with every thread of its JVM on the CPU a short probe finds fastest right before the run, and "
                    + "take the run again when that CPU probed slow around it, so that a host slowing one vCPU for a "
                    + "while does not slow one variant's JVMs only (default: ${DEFAULT-VALUE}; where affinity cannot be set "
                    + "— not Linux, JDK 21, no native access — or one CPU is allowed, nothing is placed). "
                    + "--no-cpu-choice leaves every thread to the kernel.")
    boolean cpuChoice;

    @Option(names = "--calm-cpus", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Time each run of a row of two or more workers while every CPU probes calm: right before "
                    + "the run, wait (at most 15 s per row and JVM) while a short probe finds a CPU more than 1.25x "
                    + "slower than the fastest this JVM has seen, and take the run again when a CPU probed slow around it, "
                    + "so that a host slowing one vCPU for a while does not measure its own ceiling instead of the "
                    + "scheduler (default: ${DEFAULT-VALUE}; where affinity cannot be set, nothing waits). "
                    + "--no-calm-cpus times runs whenever they come.")
    boolean calmCpus;

    @Option(names = "--remeasure-slow-forks", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "At the end of each suite, measure once more, in a fresh JVM, every fork in which the "
                    + "--cpu-choice or --calm-cpus guard counted runs while a CPU probed slow (its retakes and wait "
                    + "spent), or whose fastest probe was more than 1.25x the suite's calm probe time (born in a "
                    + "slow phase), and keep the new fork's row where it is neither (default: ${DEFAULT-VALUE}; "
                    + "only with forking). Rows say how many forks were measured again (forks_remeasured) and "
                    + "replaced (forks_replaced).")
    boolean remeasureSlowForks;

    @Option(names = "--no-progress", description = "Print one line per measurement instead of a progress bar.")
    boolean noProgress;

    @Option(names = "--rotate-benchmarks",
            description = "Forks go round the benchmarks of a suite as well as the variants (fork 1 of every "
                    + "benchmark x variant, then fork 2, ...), so that rows compared with each other, such as "
                    + "Stress-40 ... Stress-256, see the same phases of a noisy host. Needs --forks 2 or more.")
    boolean rotateBenchmarks;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A system property for this run and every measuring JVM, e.g. "
                    + "spindle.bench.cutoff.Fib=20 (a baseline's threshold) or spindle.spawn=always.")
    java.util.Map<String, String> properties = new java.util.LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        Size sz;
        try {
            sz = Size.parse(size);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (runs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--runs must be at least 1, was " + runs);
        }
        if (forks < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--forks must be at least 1, was " + forks);
        }
        if (rotateBenchmarks && (!fork || forks < 2)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rotate-benchmarks needs forked JVMs and --forks 2 or more, was "
                    + (fork ? "--forks " + forks : "--no-fork"));
        }
        if (warmup < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--warmup must be at least 0, was " + warmup);
        }
        if (warmupMillis < 0 || warmupMillis > MAX_WARMUP_MILLIS) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--warmup-time must be between 0 and " + MAX_WARMUP_MILLIS + " ms, was " + warmupMillis);
        }
        if (maxWarmup == null) {
            maxWarmup = Math.max(DEFAULT_MAX_WARMUP, warmup);
        }
        if (maxWarmup < warmup) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--max-warmup must be at least --warmup (" + warmup + "), was " + maxWarmup);
        }
        int[] ws = parseWorkers();
        if (cpuChoice && Boolean.parseBoolean(properties.get(dev.spindle.bench.suite.Variants.PIN_PROPERTY))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cpu-choice moves a one-thread row's threads to one CPU "
                    + "for each timed run and back to every CPU after it, which would undo --set "
                    + dev.spindle.bench.suite.Variants.PIN_PROPERTY + "=true: use one or the other");
        }
        properties.forEach(System::setProperty);
        Runner.CHILD_PROPERTIES.putAll(properties);
        List<Suite> resolved = new ArrayList<>();
        for (String s : suites) {
            try {
                resolved.add(Suites.get(s).only(benches, variantFilter));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        String jdk = System.getProperty("java.vm.name") + " " + Runtime.version();
        String started = OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        Report report = new Report(jdk, started, Runtime.getRuntime().availableProcessors());
        boolean tty = !noProgress && System.console() != null;
        int nForks = fork ? forks : 1;
        Progress progress = new Progress(System.err, Runner.steps(resolved, ws, runs, warmup, nForks), tty);
        System.out.printf("spindle bench: suites %s, size %s, workers %s, warm-up >= %d runs and >= %d ms (<= %d runs, more while the JIT compiles) + %d timed runs, %s, %d processors, %s%n",
                String.join(",", suites), sz.label(), Arrays.toString(ws), warmup, warmupMillis, maxWarmup, runs, jdk, report.cores(),
                fork ? nForks + " fresh JVM(s) per benchmark x variant" : "one JVM");
        Runner runner = new Runner(sz, ws, runs, new Warmup(warmup, warmupMillis * 1_000_000L, maxWarmup), progress, report, fork, nForks)
                .rotateBenchmarks(rotateBenchmarks).placeRuns(cpuChoice).calmCpus(calmCpus)
                .remeasureSlowForks(remeasureSlowForks);
        if (cpuChoice && !runner.placesRuns()) {
            System.out.println("spindle bench: --cpu-choice: no CPU to choose ("
                    + (dev.spindle.topology.CpuAffinity.isSupported() ? "this process may run on one CPU only"
                    : dev.spindle.topology.CpuAffinity.unsupportedReason()) + "); every thread left to the kernel");
        } else if (runner.placesRuns()) {
            System.out.println("spindle bench: each timed run of a one-thread row (seq, one worker) on the CPU a probe finds fastest right before it (--cpu-choice)");
        }
        if (runner.waitsForCalmCpus()) {
            System.out.println("spindle bench: each timed run of a row of two or more workers while every CPU probes calm (--calm-cpus)");
        } else if (calmCpus) {
            System.out.println("spindle bench: --calm-cpus: no CPU to probe ("
                    + (dev.spindle.topology.CpuAffinity.isSupported() ? "this process may run on one CPU only"
                    : dev.spindle.topology.CpuAffinity.unsupportedReason()) + "); runs timed whenever they come");
        }
        if (runner.remeasuresSlowForks()) {
            System.out.println("spindle bench: a fork whose guard counted runs while a CPU probed slow, or born in a slow phase, is measured again at the end of its suite (--remeasure-slow-forks)");
        }
        for (Suite s : resolved) {
            runner.run(s);
        }
        progress.close();
        System.out.println();
        System.out.print(ReportWriter.table(report));
        List<dev.spindle.bench.suite.Target.Outcome> targets = TargetTable.evaluate(report, resolved);
        String targetText = TargetTable.text(targets, sz);
        if (!targetText.isEmpty()) {
            System.out.println();
            System.out.print(targetText);
        }
        Files.createDirectories(out);
        String command = commandLine(spec.commandLine().getParseResult().originalArgs());
        ReportWriter.writeJson(report, out.resolve("results.json"));
        ReportWriter.writeMarkdown(report, out.resolve("results.md"), command, TargetTable.markdown(targets, sz));
        TargetTable.writeJson(targets, sz, out.resolve("targets.json"));
        for (Suite s : resolved) {
            SpeedupChart.write(report, s.name(), out.resolve("speedup-" + s.name() + ".png"));
        }
        System.out.println("wrote " + out.resolve("results.json") + ", results.md, targets.json and speedup charts");
        if (!report.allVerified()) {
            System.err.println("FAILED: some answers did not match the sequential answer (see 'ok' column)");
            return 1;
        }
        return 0;
    }

    private int[] parseWorkers() {
        if (workers == null || workers.isEmpty()) {
            int n = Runtime.getRuntime().availableProcessors();
            return n == 1 ? new int[]{1} : new int[]{1, n};
        }
        int[] ws = new int[workers.size()];
        for (int i = 0; i < ws.length; i++) {
            String w = workers.get(i).trim();
            try {
                ws[i] = Integer.parseInt(w);
            } catch (NumberFormatException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--workers: '" + w + "' is not an integer");
            }
            if (ws[i] < 1 || ws[i] > dev.spindle.runtime.SpindlePool.MAX_WORKERS) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--workers: " + ws[i] + " is outside 1.." + dev.spindle.runtime.SpindlePool.MAX_WORKERS);
            }
        }
        return ws;
    }

    /**
     * The command as the user typed it. Picocli gives a subcommand the whole argument list,
     * its own name included when it was reached through {@code spindle} ({@code bench --suite
     * ...}) and not when it runs on its own.
     */
    static String commandLine(List<String> originalArgs) {
        List<String> args = originalArgs;
        if (!args.isEmpty() && args.get(0).equals("bench")) {
            args = args.subList(1, args.size());
        }
        return "./spindle bench " + String.join(" ", args);
    }
}
