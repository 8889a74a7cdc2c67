package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Variant;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures suites: for each benchmark the seq variant (its median is Ts), then every other
 * variant at every worker count: warm-up runs (at least {@code --warmup} runs and
 * {@code --warmup-time}, then more while the JIT is still compiling: {@link Warmup}), then timed
 * runs on a fresh copy of the input
 * (copying is not timed), after a full collection that leaves every variant's input compacted.
 * Every run's answer is compared with the reference answer (the seq
 * variant's, computed once); a mismatch is recorded and fails the invocation.
 *
 * <p>By default every benchmark × variant runs in a fresh JVM, as JMH forks: variants share
 * algorithm code, and in one JVM the order in which they run changes what the JIT compiles for
 * them (measured: Sort's second variant ran 9% slower than its third, whichever they were). The
 * parent computes the reference answer and hands it to each child in a file.
 */
final class Runner {
    static final String STEP = "@@spindle-step";

    private final Size size;
    private final int[] workers;
    private final int runs;
    private final Warmup warmup;
    private final Progress progress;
    private final Report report;
    private final boolean fork;
    private final int forks;
    /** Forks go round the benchmarks of a suite too, not only round the variants. */
    private boolean rotateBenchmarks;
    /** Each timed run of a one-thread row runs on the vCPU that probes fastest right before it ({@link RunPlacement}). */
    private boolean placeRuns;
    /**
     * One-thread rows' timed runs in a slow phase of their CPU are taken again
     * ({@link SlowPhaseGuard}); makes such a row's guard, or null for none.
     */
    private java.util.function.Supplier<SlowPhaseGuard> slowPhaseGuards;
    /**
     * Rows of two or more workers time their runs while every CPU probes calm
     * ({@link CalmCpusGuard}); makes such a row's guard, or null for none.
     */
    private java.util.function.Supplier<CalmCpusGuard> calmCpusGuards;
    /** Forks whose guards counted runs in a slow phase are measured again at the end of the suite ({@link SlowForks}). */
    private boolean remeasureSlowForks;
    /** The probe's calm time as this suite's forks saw it; given to each new fork ({@link CalmProbeReference}). */
    private final CalmProbeReference calmProbe = new CalmProbeReference();
    /** In a measuring JVM: the reference its parent gave it, NaN for none ({@link #knownCalmProbe}). */
    private double givenCalmProbeMs = Double.NaN;
    /** Runs one fork; a fresh JVM but in tests ({@link #launchForksWith}). */
    private ForkLauncher forkLauncher = this::runFork;

    /** One fork: a benchmark × variant measured at every worker count in one JVM. */
    interface ForkLauncher {
        /**
         * @param suite   the suite
         * @param b       the benchmark
         * @param v       the variant
         * @param refFile the reference answer
         * @return the fork's measurements, one per worker count (one failed measurement if it failed)
         */
        List<Measurement> launch(Suite suite, Benchmark<?, ?> b, Variant<?, ?> v, Path refFile)
                throws IOException, InterruptedException;
    }

    Runner(Size size, int[] workers, int runs, Warmup warmup, Progress progress, Report report, boolean fork) {
        this(size, workers, runs, warmup, progress, report, fork, 1);
    }

    Runner(Size size, int[] workers, int runs, Warmup warmup, Progress progress, Report report, boolean fork, int forks) {
        this.forks = forks;
        this.size = size;
        this.workers = workers;
        this.runs = runs;
        this.warmup = warmup;
        this.progress = progress;
        this.report = report;
        this.fork = fork;
    }

    /**
     * Progress steps of a whole invocation: every timed run and the least number of warm-up runs
     * in every fork (warm-up runs added while the JIT compiles are not counted in advance).
     */
    static long steps(List<Suite> suites, int[] workers, int runs, int warmup, int forks) {
        long n = 0;
        for (Suite s : suites) {
            for (Benchmark<?, ?> b : s.benchmarks()) {
                for (Variant<?, ?> v : b.variants()) {
                    long perFork = (long) (v.usesWorkers() ? workers.length : 1) * (v.singleRun() ? 1 : runs + warmup);
                    n += perFork * (v.singleRun() ? 1 : forks);
                }
            }
        }
        return n;
    }

    /**
     * Makes forks go round the benchmarks as well as the variants: fork 1 of every benchmark ×
     * variant, then fork 2 of every one, and so on. Rows meant to be compared with each other
     * (Stress-40 … Stress-256) then see the same minutes of a host whose speed changes by tens of
     * percent from one phase to the next, instead of one row all in one phase and the next row in
     * another. Only with forking and more than one fork.
     *
     * @param rotate true to rotate
     * @return this runner
     */
    Runner rotateBenchmarks(boolean rotate) {
        this.rotateBenchmarks = rotate;
        return this;
    }

    /**
     * Runs each timed run of a one-thread row — a sequential variant, or a pool variant at one
     * worker — with every thread of its JVM on the vCPU that {@link CpuChoice} finds fastest right
     * before it ({@link RunPlacement}), and takes a run again when that CPU probed slow around it
     * ({@link SlowPhaseGuard}). With forking, the measuring JVMs do it. Only where
     * {@link CpuChoice#available()}; otherwise nothing changes.
     *
     * @param place true to place
     * @return this runner
     */
    Runner placeRuns(boolean place) {
        this.placeRuns = place && CpuChoice.available();
        if (placeRuns && slowPhaseGuards == null) {
            slowPhaseGuards = SlowPhaseGuard::new;
        }
        return this;
    }

    /**
     * Takes a one-thread row's timed run again when its CPU probed slow around it, with the guard
     * each such row gets from {@code guards} (a test's scripted probe).
     *
     * @param guards makes a row's guard, or null for none
     * @return this runner
     */
    Runner guardSlowPhases(java.util.function.Supplier<SlowPhaseGuard> guards) {
        this.slowPhaseGuards = guards;
        return this;
    }

    /**
     * Times each run of a row of two or more workers while every CPU probes calm, and takes a run
     * again when a CPU probed slow around it ({@link CalmCpusGuard}). With forking, the measuring
     * JVMs do it. Only where {@link CpuChoice#available()}; otherwise nothing changes.
     *
     * @param calm true to wait for calm CPUs
     * @return this runner
     */
    Runner calmCpus(boolean calm) {
        return guardCalmCpus(calm && CpuChoice.available() ? CalmCpusGuard::new : null);
    }

    /**
     * Waits for calm CPUs around the timed runs of rows of two or more workers, with the guard each
     * such row gets from {@code guards} (a test's scripted probe).
     *
     * @param guards makes a row's guard, or null for none
     * @return this runner
     */
    Runner guardCalmCpus(java.util.function.Supplier<CalmCpusGuard> guards) {
        this.calmCpusGuards = guards;
        return this;
    }

    /**
     * Measures again, at the end of the suite and once each, the forks in which a guard counted
     * runs while a CPU probed slow, its retakes spent ({@link SlowForks}). Only with forking.
     *
     * @param again true to measure such forks again
     * @return this runner
     */
    Runner remeasureSlowForks(boolean again) {
        this.remeasureSlowForks = again;
        return this;
    }

    /**
     * In a measuring JVM: the probe's calm time as the suite's earlier JVMs saw it, given to every
     * guard ({@link SlowPhaseGuard#knownCalm}, {@link CalmCpusGuard#knownCalm}).
     *
     * @param ms the reference in milliseconds, NaN for none
     * @return this runner
     * @throws IllegalArgumentException if {@code ms} is neither NaN nor a positive finite time
     */
    Runner knownCalmProbe(double ms) {
        this.givenCalmProbeMs = CalmProbeReference.checked(ms);
        return this;
    }

    /** @return the calm probe reference a new fork or guard gets: the one given, else the suite's; NaN if none */
    double calmProbeMs() {
        return Double.isNaN(givenCalmProbeMs) ? calmProbe.ms() : givenCalmProbeMs;
    }

    /**
     * Runs forks with {@code launcher} instead of fresh JVMs (a test's scripted forks).
     *
     * @param launcher runs one fork
     * @return this runner
     */
    Runner launchForksWith(ForkLauncher launcher) {
        this.forkLauncher = launcher;
        return this;
    }

    /**
     * @return whether a fork can be measured again for its guards' slow runs: asked for, with
     *         forking, and with a guard in the measuring JVMs to count them ({@link #placeRuns},
     *         {@link #calmCpus})
     */
    boolean remeasuresSlowForks() {
        return remeasureSlowForks && fork && (slowPhaseGuards != null || calmCpusGuards != null);
    }

    /** @return whether rows of two or more workers wait for calm CPUs ({@link #calmCpus}) */
    boolean waitsForCalmCpus() {
        return calmCpusGuards != null;
    }

    /** @return whether one-thread rows' timed runs are placed ({@link #placeRuns}) */
    boolean placesRuns() {
        return placeRuns;
    }

    /**
     * Measures every benchmark of a suite. With forking: fork rounds (per benchmark, or round the
     * whole suite with {@link #rotateBenchmarks}), then the forks that counted runs in a slow phase
     * measured again ({@link SlowForks}, with {@link #remeasureSlowForks}), then the report.
     */
    void run(Suite suite) throws IOException, InterruptedException {
        if (!fork) {
            for (Benchmark<?, ?> b : suite.benchmarks()) {
                runUnforked(suite, b);
            }
            return;
        }
        List<BenchmarkForks<?, ?>> all = new ArrayList<>();
        try {
            if (rotateBenchmarks && forks > 1) {
                for (Benchmark<?, ?> b : suite.benchmarks()) {
                    all.add(prepareForks(b));
                }
                for (int f = 0; f < forks; f++) {
                    for (BenchmarkForks<?, ?> r : all) {
                        measureCeiling(suite, r.benchmark);
                        runForkRound(suite, r, f);
                    }
                }
                for (BenchmarkForks<?, ?> r : all) {
                    measureCeiling(suite, r.benchmark);
                }
            } else {
                // Forks go round the variants (seq, A, B, seq, A, B, ...) rather than variant by
                // variant: on a shared host, a slow minute then slows one fork of every variant
                // instead of every fork of one variant, and the ratios of one run stay comparable.
                for (Benchmark<?, ?> b : suite.benchmarks()) {
                    BenchmarkForks<?, ?> r = prepareForks(b);
                    all.add(r);
                    for (int f = 0; f < forks; f++) {
                        measureCeiling(suite, b);
                        runForkRound(suite, r, f);
                    }
                    measureCeiling(suite, b);
                }
            }
            if (remeasureSlowForks) {                  // forked here; the forks' rows carry the guards' counts
                double calmMs = calmProbe.ms();          // every first measurement's JVM recorded by now
                for (BenchmarkForks<?, ?> r : all) {
                    measureAgain(suite, r, calmMs);
                }
            }
            for (BenchmarkForks<?, ?> r : all) {
                reportForks(r);
            }
        } finally {
            for (BenchmarkForks<?, ?> r : all) {
                Files.deleteIfExists(r.refFile);
            }
        }
    }

    /** One benchmark's forks: its reference file and each variant's forks so far. */
    private static final class BenchmarkForks<I, R> {
        final Benchmark<I, R> benchmark;
        final List<Variant<I, R>> variants;
        final Path refFile;
        final List<List<List<Measurement>>> forksOf = new ArrayList<>();
        /** Per variant, per row index: forks measured again, and rows replaced ({@link SlowForks}). */
        final List<Map<Integer, int[]>> againOf = new ArrayList<>();

        BenchmarkForks(Benchmark<I, R> benchmark, Path refFile) {
            this.benchmark = benchmark;
            this.variants = benchmark.variants();
            this.refFile = refFile;
            for (int k = 0; k < variants.size(); k++) {
                forksOf.add(new ArrayList<>());
                againOf.add(new java.util.HashMap<>());
            }
        }
    }

    /**
     * Measures again, once each, the forks of a benchmark with a slow row — a guard counted runs
     * while a probe around them was slow, or the JVM was born slow — and keeps what
     * {@link SlowForks#keep} keeps.
     *
     * @param calmMs the suite's calm probe reference as the pass began, when every first
     *               measurement's JVM had reported (the forks measured again do not move it)
     */
    private <I, R> void measureAgain(Suite suite, BenchmarkForks<I, R> r, double calmMs) throws IOException, InterruptedException {
        for (int k = 0; k < r.variants.size(); k++) {
            Variant<I, R> v = r.variants.get(k);
            List<List<Measurement>> forksOfV = r.forksOf.get(k);
            for (int f = 0; f < forksOfV.size(); f++) {
                List<Measurement> first = forksOfV.get(f);
                if (!SlowForks.needsAgain(first, calmMs)) {
                    continue;
                }
                String fork = String.format(java.util.Locale.ROOT, "%-10s %-8s fork %d of %d", r.benchmark.name(), v.name(),
                        f + 1, forksOfV.size());
                progress.finished(fork + " measured again: " + slowRows(first, calmMs));
                List<Measurement> again = forkLauncher.launch(suite, r.benchmark, v, r.refFile);
                calmProbe.record(again);
                SlowForks.Kept kept = SlowForks.keep(first, again, calmMs);
                forksOfV.set(f, kept.fork());
                StringBuilder took = new StringBuilder();
                for (int i = 0; i < kept.fork().size(); i++) {
                    int[] n = r.againOf.get(k).computeIfAbsent(i, x -> new int[2]);
                    n[0]++;
                    if (kept.replaced()[i]) {
                        n[1]++;
                        took.append(took.isEmpty() ? "" : ", ").append("P=").append(kept.fork().get(i).workers());
                    }
                }
                progress.finished(fork + ": " + (took.isEmpty()
                        ? "kept as first measured (the new JVM was slow too)" : "the new " + took + " kept"));
            }
        }
    }

    /**
     * The slow rows of a fork, for the log: "P=2 counted 3 run(s) in a slow phase", "P=1 born slow
     * (fastest probe 2.28 ms, calm 1.55 ms)".
     */
    private static String slowRows(List<Measurement> fork, double calmMs) {
        StringBuilder sb = new StringBuilder();
        for (Measurement m : fork) {
            if (SlowForks.countedSlowRuns(m)) {
                sb.append(sb.isEmpty() ? "" : ", ").append("P=").append(m.workers()).append(" counted ")
                        .append(Math.round(m.counters().get(SlowForks.COUNTER))).append(" run(s) in a slow phase");
            } else if (SlowForks.bornSlow(m, calmMs)) {
                sb.append(sb.isEmpty() ? "" : ", ").append(String.format(java.util.Locale.ROOT,
                        "P=%d born slow (fastest probe %.3f ms, calm %.3f ms)", m.workers(),
                        m.counters().get(CalmProbeReference.FASTEST), calmMs));
            }
        }
        return sb.toString();
    }

    private <I, R> BenchmarkForks<I, R> prepareForks(Benchmark<I, R> b) throws IOException {
        progress.label(b.name() + ": preparing input");
        I input = b.prepare(size);
        List<Variant<I, R>> variants = b.variants();
        if (variants.isEmpty() || !variants.get(0).name().equals("seq")) {
            throw new IllegalStateException(b.name() + ": the first variant must be 'seq'");
        }
        return new BenchmarkForks<>(b, writeReference(b, variants, input));
    }

    private <I, R> void runForkRound(Suite suite, BenchmarkForks<I, R> r, int f) throws IOException, InterruptedException {
        for (int k = 0; k < r.variants.size(); k++) {
            Variant<I, R> v = r.variants.get(k);
            if (f == 0 || !v.singleRun()) {
                List<Measurement> fork = forkLauncher.launch(suite, r.benchmark, v, r.refFile);
                calmProbe.record(fork);
                r.forksOf.get(k).add(fork);
            }
        }
    }

    /** Computes the reference answer with the seq variant and writes it to a temporary file. */
    private <I, R> Path writeReference(Benchmark<I, R> b, List<Variant<I, R>> variants, I input) throws IOException {
        progress.label(b.name() + ": computing the reference answer");
        R ref;
        try (Variant.Instance<I, R> seq = variants.get(0).open(1)) {
            ref = seq.run(b.fresh(input));
        }
        Path refFile = Files.createTempFile("spindle-ref-", ".bin");
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(refFile))) {
            out.writeObject(ref);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(refFile);
            throw e;
        }
        return refFile;
    }

    /**
     * Merges each variant's forks, worker count by worker count, into the report; a row some of
     * whose forks were measured again says how many, and how many of its rows were replaced.
     */
    private void reportForks(BenchmarkForks<?, ?> r) {
        for (int k = 0; k < r.forksOf.size(); k++) {
            List<List<Measurement>> perFork = r.forksOf.get(k);
            for (int i = 0; i < perFork.get(0).size(); i++) {
                List<Measurement> same = new ArrayList<>();
                for (List<Measurement> ms : perFork) {
                    if (i < ms.size()) {
                        same.add(ms.get(i));
                    }
                }
                Measurement m = Measurement.merge(same);
                int[] again = r.againOf.get(k).get(i);
                if (again != null && m.error() == null && !m.fails()) {
                    m.counters().put(SlowForks.REMEASURED, (double) again[0]);
                    m.counters().put(SlowForks.REPLACED, (double) again[1]);
                }
                report.add(m);
            }
        }
    }

    /** One benchmark measured in this JVM ({@code --no-fork}): every variant, between two ceilings. */
    private <I, R> void runUnforked(Suite suite, Benchmark<I, R> b) {
        progress.label(b.name() + ": preparing input");
        I input = b.prepare(size);
        List<Variant<I, R>> variants = b.variants();
        if (variants.isEmpty() || !variants.get(0).name().equals("seq")) {
            throw new IllegalStateException(b.name() + ": the first variant must be 'seq'");
        }
        Object[] reference = new Object[1];
        measureCeiling(suite, b);
        for (Variant<I, R> v : variants) {
            report.addAll(withForkCeilings(measureVariant(suite, b, v, input, reference), size));
        }
        measureCeiling(suite, b);
    }

    /**
     * The measurements of one JVM, each row above one worker with the machine ceiling at its worker
     * count measured now, right after the timed runs ({@link Measurement#forkCeilings}): a fork that
     * ran slower than its siblings on a host whose parallel capacity had dropped (the vCPUs on one
     * core's two hardware threads, a busy neighbour) shows it, where the ceilings the parent
     * measures between fork rounds are minutes apart from some forks.
     *
     * @param ms   one JVM's measurements
     * @param size the problem size (the kernel runs 25 ms per copy, 5 at {@code small})
     * @return the same measurements, ceilings set where measured
     */
    static List<Measurement> withForkCeilings(List<Measurement> ms, Size size) {
        List<Measurement> out = new ArrayList<>(ms.size());
        for (Measurement m : ms) {
            boolean parallel = m.workers() > 1 && m.error() == null;
            out.add(parallel ? m.withCeiling(MachineCeiling.measure(m.workers(), size == Size.SMALL ? 5 : 25)) : m);
        }
        return out;
    }

    /**
     * The machine's ceiling at every worker count above one (see {@link MachineCeiling}) and, if
     * there is one, the hand-off latency (see {@link HandOffLatency}), into the report.
     */
    private void measureCeiling(Suite suite, Benchmark<?, ?> b) {
        if (report == null) {
            return;
        }
        boolean parallel = false;
        for (int p : workers) {
            if (p > 1) {
                parallel = true;
                progress.label(b.name() + ": machine ceiling at P=" + p);
                report.addCeiling(suite.name(), b.name(), p, MachineCeiling.measure(p, size == Size.SMALL ? 5 : 25));
            }
        }
        if (parallel) {
            progress.label(b.name() + ": hand-off latency");
            report.addRoundTrip(suite.name(), b.name(), HandOffLatency.measureNanos());
        }
    }

    /** Measures one variant at every worker count it runs at, in this JVM. */
    <I, R> List<Measurement> measureVariant(Suite suite, Benchmark<I, R> b, Variant<I, R> v, I input, Object[] reference) {
        // A full collection first, so every variant measures a compacted input: otherwise a
        // variant that allocates has its input copied by an early young collection and one that
        // allocates nothing keeps the allocation-order layout, and pointer-chasing inputs are
        // layout-sensitive (TreeSum-1M: 9.6 vs 14-16 ms for the same code on this VM).
        System.gc();
        int maxWorkers = Arrays.stream(workers).max().orElse(1);
        // sequential code ("seq", "seq-…") runs on one thread; other pool-less variants use every core
        int[] ps = v.usesWorkers() ? workers : new int[]{v.name().startsWith("seq") ? 1 : maxWorkers};
        List<Measurement> out = new ArrayList<>();
        for (int p : ps) {
            out.add(measure(suite, b, v, p, input, reference));
        }
        return out;
    }

    /** One fork of a variant: its measurements at every worker count, in {@link #workers}' order, taken in one JVM. */
    @SuppressWarnings("unchecked")
    private List<Measurement> runFork(Suite suite, Benchmark<?, ?> b, Variant<?, ?> v, Path refFile)
            throws IOException, InterruptedException {
        Path resultFile = Files.createTempFile("spindle-result-", ".bin");
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(childJvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments()));
            CHILD_PROPERTIES.forEach((k, val) -> cmd.add("-D" + k + "=" + val));
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), MeasureOneCommand.MAIN,
                    "--suite", suite.name(), "--bench", b.name(), "--variant", v.name(),
                    "--size", size.label(), "--runs", Integer.toString(runs), "--warmup", Integer.toString(warmup.min()),
                    "--warmup-nanos", Long.toString(warmup.minNanos()), "--max-warmup", Integer.toString(warmup.max()),
                    "--workers", String.join(",", Arrays.stream(workers).mapToObj(Integer::toString).toList()),
                    "--reference", refFile.toString(), "--result", resultFile.toString()));
            if (placeRuns) {
                cmd.add("--place-runs");
            }
            if (calmCpusGuards != null) {
                cmd.add("--calm-cpus");
            }
            double calmMs = calmProbeMs();
            if ((placeRuns || calmCpusGuards != null) && !Double.isNaN(calmMs)) {
                cmd.addAll(List.of("--calm-probe-ms", Double.toString(calmMs)));
            }
            Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            boolean[] killed = {false};
            java.util.concurrent.ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
                killed[0] = true;
                child.descendants().forEach(ProcessHandle::destroyForcibly);
                child.destroyForcibly();
            }, CHILD_TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
            StringBuilder tail = new StringBuilder();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.startsWith(STEP)) {
                        progress.label(line.substring(STEP.length()).trim());
                        progress.step();
                    } else if (line.startsWith(Progress.LINE)) {
                        progress.finished(line.substring(Progress.LINE.length()));
                    } else {
                        System.err.println(line);
                        tail.append(line).append('\n');
                    }
                }
            }
            int exit = child.waitFor();
            watchdog.cancel(false);
            if (exit != 0 || Files.size(resultFile) == 0) {
                boolean timedOut = killed[0];
                String why = timedOut
                        ? "timed out after " + CHILD_TIMEOUT_SECONDS + " s (measuring JVM killed)"
                        : "measuring JVM exited with " + exit + (tail.isEmpty() ? "" : ": " + tail.toString().strip());
                // A baseline that cannot finish (a thread or executor baseline that deadlocks or
                // exhausts threads) is reported, not fatal; Spindle and seq must always finish.
                boolean tolerated = timedOut && !v.name().equals("spindle") && !v.name().equals("seq");
                if (timedOut) {
                    progress.finished(String.format(java.util.Locale.ROOT, "%-10s %-8s %s %s", b.name(), v.name(),
                            tolerated ? "not run:" : "ERROR:", why));
                }
                return List.of(new Measurement(suite.name(), b.name(), b.describe(size), v.name(), 0, size.label(), 0,
                        Double.NaN, Double.NaN, Double.NaN, false, null, Map.of(), why, tolerated, new double[0], 1));
            }
            try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(resultFile))) {
                return (List<Measurement>) in.readObject();
            } catch (ClassNotFoundException e) {
                throw new IOException(e);
            }
        } finally {
            Files.deleteIfExists(resultFile);
        }
    }

    /**
     * A measuring JVM's options: this JVM's own, less a debugger agent and java agents.
     *
     * @param own this JVM's input arguments
     * @return the child's JVM options
     */
    static List<String> childJvmOptions(List<String> own) {
        List<String> out = new ArrayList<>();
        for (String arg : own) {
            if (!arg.startsWith("-agentlib:jdwp") && !arg.startsWith("-javaagent")) {
                out.add(arg);
            }
        }
        return out;
    }

    /** System properties given with {@code --set}, passed to every measuring JVM. */
    static final Map<String, String> CHILD_PROPERTIES = new java.util.LinkedHashMap<>();

    /** How long one measuring JVM may take before it is killed ({@code -Dspindle.bench.timeout=SECONDS}). */
    static final long CHILD_TIMEOUT_SECONDS = Long.getLong("spindle.bench.timeout", 300);
    private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "spindle-bench-watchdog");
                t.setDaemon(true);
                return t;
            });

    /** Bytes allocated so far by every thread of this JVM, live or terminated (JDK 21+). */
    static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
    }

    @SuppressWarnings("unchecked")
    <I, R> Measurement measure(Suite suite, Benchmark<I, R> b, Variant<I, R> v, int p, I input, Object[] reference) {
        String what = b.name() + " " + v.name() + " P=" + p;
        int runs = v.singleRun() ? 1 : this.runs;
        Warmup warmup = v.singleRun() ? new Warmup(0, 0L, 0) : this.warmup.forProgram(b.warmupRuns());
        double[] times = new double[runs];
        String mismatch = null;
        Map<String, Double> perRun = new LinkedHashMap<>();
        String error = null;
        int steps = 0;
        int warmed = 0;
        long warmNs = 0, lastNs = 0, lastJitMs = -1;
        int timedDone = 0;
        boolean timing = false;
        boolean compiling = false;
        long timedJitMs = 0;
        // Bytes allocated by all threads during the timed runs' run() calls alone: the input's
        // fresh copy made between runs (Quicksort's 64 MB array) is the harness's, not the variant's.
        long timedAlloc = 0;
        int restarts = 0;
        // Timed runs since the counters' snapshot, retaken ones included: the scheduler's
        // counters are averaged over these, the time, allocation and JIT figures over the kept runs.
        int counterRuns = 0;
        SlowPhaseGuard guard = slowPhaseGuards != null && p == 1 ? slowPhaseGuards.get().knownCalm(calmProbeMs()) : null;
        RunPlacement placement = placeRuns && p == 1 ? RunPlacement.ofCallingThread() : null;
        // every timed row that computes on several CPUs, a pool's or a pool-less baseline's on every
        // core; not a single-run baseline (a thread per task: one run of seconds, retakes too dear)
        CalmCpusGuard calm = calmCpusGuards != null && p > 1 && !v.singleRun() ? calmCpusGuards.get().knownCalm(calmProbeMs()) : null;
        try (Variant.Instance<I, R> inst = placement == null ? v.open(p) : RunPlacement.openWithoutParkBinding(() -> v.open(p))) {
            // What the first timed run reads (counters, allocation, the compiler queue) is used
            // once here, so that loading and compiling it falls in the warm-up, not in that run.
            inst.counters();
            allocatedBytes();
            CompilerQueue.busy();
            while (timedDone < runs) {
                timing = timing || !warmup.another(warmed, lastNs, lastJitMs, warmNs, compiling);
                progress.label(what + (timing ? " run " + (timedDone + 1) + "/" + runs
                        : " warm-up " + (warmed + 1) + (warmed < warmup.min() ? "/" + warmup.min() : " (more: least time, or JIT compiling)")));
                I in = b.fresh(input);
                Map<String, Long> before = timing && timedDone == 0 ? inst.counters() : null;
                if (before != null) {
                    before.forEach((k, val) -> perRun.put(k, -(double) val));
                    counterRuns = 0;
                }
                if (timing) {
                    counterRuns++;                      // retaken runs too: the counters saw them
                }
                boolean placed = placement != null && timing;
                if (placed) {
                    placement.place();                  // every thread on the CPU that probed fastest
                }
                double probeBefore = guard == null || !timing ? 0 : guard.sampleAround();
                double calmBefore = calm == null || !timing ? 0 : calm.awaitCalm();
                long jit0 = Warmup.jitMillis();
                long alloc0 = allocatedBytes();
                long t0 = System.nanoTime();
                R r;
                try {
                    r = inst.run(in);
                } catch (RuntimeException | Error e) {
                    if (placed) {
                        placement.release();
                    }
                    error = e.getClass().getSimpleName() + ": " + e.getMessage();
                    progress.step();
                    steps++;
                    break;
                }
                long t1 = System.nanoTime();
                long runAlloc = allocatedBytes() - alloc0;
                boolean counted = timing || warmed < warmup.min();
                long jit1 = Warmup.jitMillis();
                long runJitMs = jit0 < 0 || jit1 < 0 ? -1 : jit1 - jit0;
                double probeAfter = guard == null || !timing ? 0 : guard.sample();
                double calmAfter = calm == null || !timing ? 0 : calm.sample();
                if (placed) {
                    placement.release();
                }
                if (timing && warmup.restartsTiming(t1 - t0, runJitMs, restarts, warmNs)) {
                    // The JIT compiled during this timed run: it and the timed runs before it
                    // count as warm-up, and timing starts again (Warmup.restartsTiming).
                    restarts++;
                    warmed += timedDone + 1;
                    warmNs += t1 - t0;
                    for (int i = 0; i < timedDone; i++) {
                        warmNs += (long) (times[i] * 1e6);
                    }
                    timedDone = 0;
                    timedJitMs = 0;
                    timedAlloc = 0;
                } else if (timing && guard != null && guard.retake(probeBefore, probeAfter)) {
                    // The CPU this JVM runs on probed slow around the run: taken again (SlowPhaseGuard).
                    warmNs += t1 - t0;
                } else if (timing && calm != null && calm.retake(calmBefore, calmAfter)) {
                    // A CPU probed slow around the run: taken again (CalmCpusGuard).
                    warmNs += t1 - t0;
                } else if (timing) {
                    times[timedDone++] = (t1 - t0) / 1e6;
                    timedJitMs += Math.max(0, runJitMs);
                    timedAlloc += runAlloc;
                } else {
                    compiling = CompilerQueue.busy();
                    warmed++;
                    lastNs = t1 - t0;
                    warmNs += lastNs;
                    lastJitMs = runJitMs;
                }
                if (reference[0] == null) {
                    reference[0] = r;
                } else if (mismatch == null) {
                    mismatch = b.mismatch((R) reference[0], r);
                }
                if (counted) {
                    progress.step();
                    steps++;
                }
            }
            Map<String, Long> after = inst.counters();
            after.forEach((k, val) -> perRun.merge(k, (double) val, Double::sum));
            int seen = Math.max(1, counterRuns);
            perRun.replaceAll((k, val) -> val / seen);
            perRun.put("alloc_bytes", (double) timedAlloc / runs);
            perRun.put("jit_ms", (double) timedJitMs / runs);
            perRun.put("warmup_runs", (double) warmed);
            perRun.put("timing_restarts", (double) restarts);
            if (guard != null) {
                perRun.put("cpu_slow_retakes", (double) guard.retakes());
                perRun.put(SlowForks.COUNTER, (double) guard.slowRunsCounted());
                perRun.put(CalmProbeReference.FASTEST, guard.fastestMs());
                perRun.put("cpu_probe_ms", guard.countedMedianMs());
            }
            if (placement != null) {
                perRun.put("cpu_probe_ratio", placement.medianProbeRatio());
            }
            if (calm != null) {
                perRun.put("cpu_slow_retakes", (double) calm.retakes());
                perRun.put(SlowForks.COUNTER, (double) calm.slowRunsCounted());
                perRun.put("cpu_calm_wait_ms", (double) calm.waitedMs());
                perRun.put(CalmProbeReference.FASTEST, calm.fastestMs());
                perRun.put("cpu_probe_ratio", calm.countedMedianRatio());
            }
        }
        if (error != null) {
            for (int i = steps; i < warmup.min() + runs; i++) {
                progress.step();
            }
            boolean tolerated = v.singleRun();
            progress.finished(String.format(java.util.Locale.ROOT, "%-10s %-8s P=%-2d %s %s", b.name(), v.name(), p,
                    tolerated ? "not run:" : "ERROR:", error));
            if (!tolerated) {
                System.err.println("RUN FAILED: " + what + ": " + error);
            }
            perRun.clear();
            return new Measurement(suite.name(), b.name(), b.describe(size), v.name(), p, size.label(), 0,
                    Double.NaN, Double.NaN, Double.NaN, false, null, perRun, error, tolerated, new double[0], 1);
        }
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        double median = Measurement.medianOfSorted(sorted);
        Measurement m = new Measurement(suite.name(), b.name(), b.describe(size), v.name(), p, size.label(), runs,
                median, sorted[0], sorted[sorted.length - 1], mismatch == null, mismatch, perRun, null, false, times, 1);
        progress.finished(String.format(java.util.Locale.ROOT, "%-10s %-8s P=%-2d median %s ms%s%s", b.name(), v.name(), p,
                Report.ms(median), (placement == null ? "" : "  [" + placement.summary() + "]")
                        + (calm == null ? "" : String.format(java.util.Locale.ROOT, "  [calm CPUs: waited %.1f s, %d run(s) taken again]",
                        calm.waitedMs() / 1000.0, calm.retakes())),
                mismatch == null ? "" : "  MISMATCH: " + mismatch));
        if (mismatch != null) {
            System.err.println("VERIFICATION FAILED: " + what + ": " + mismatch);
        }
        return m;
    }

}
