package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Suites;
import dev.spindle.bench.suite.Variant;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The child side of forked measurement: measures one benchmark × variant at the given worker
 * counts in this fresh JVM, verifies every answer against the reference answer in a file, and
 * writes its measurements to a file for the parent. Not meant to be run by hand.
 */
@Command(name = "measure-one", hidden = true)
public final class MeasureOneCommand implements Callable<Integer> {
    /** Main class name the parent launches. */
    static final String MAIN = MeasureOneCommand.class.getName();

    @Option(names = "--suite", required = true) String suite;
    @Option(names = "--bench", required = true) String bench;
    @Option(names = "--variant", required = true) String variant;
    @Option(names = "--size", required = true) String size;
    @Option(names = "--runs", required = true) int runs;
    @Option(names = "--warmup", required = true) int warmup;
    @Option(names = "--warmup-nanos", required = true) long warmupNanos;
    @Option(names = "--max-warmup", required = true) int maxWarmup;
    @Option(names = "--workers", required = true, split = ",") int[] workers;
    @Option(names = "--reference", required = true) Path reference;
    @Option(names = "--result", required = true) Path result;
    @Option(names = "--place-runs") boolean placeRuns;
    @Option(names = "--calm-cpus") boolean calmCpus;
    /** The probe's calm time as the suite's earlier JVMs saw it ({@link CalmProbeReference}); NaN for none. */
    @Option(names = "--calm-probe-ms") double calmProbeMs = Double.NaN;

    /**
     * Entry point of a measuring child JVM.
     *
     * @param args see the options
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new MeasureOneCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Suite s = Suites.get(suite).only(List.of(bench), List.of(variant));
        Benchmark<?, ?> b = s.benchmarks().get(0);
        Object ref;
        try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(reference))) {
            ref = in.readObject();
        }
        List<Measurement> out = measure(s, b, ref);
        try (ObjectOutputStream o = new ObjectOutputStream(Files.newOutputStream(result))) {
            o.writeObject(new ArrayList<>(out));
        }
        return 0;
    }

    private <I, R> List<Measurement> measure(Suite s, Benchmark<I, R> b, Object ref) {
        Size sz = Size.parse(size);
        Runner runner = new Runner(sz, workers, runs, new Warmup(warmup, warmupNanos, maxWarmup), Progress.child(System.out), null, false)
                .placeRuns(placeRuns).calmCpus(calmCpus).knownCalmProbe(calmProbeMs);
        Variant<I, R> v = b.variant(variant);
        I input = b.prepare(sz);
        return Runner.withForkCeilings(runner.measureVariant(s, b, v, input, new Object[]{ref}), sz);
    }
}
