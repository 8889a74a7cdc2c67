package dev.spindle.bench.runner;

import dev.spindle.bench.futures.FutureProgram;
import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suites;
import dev.spindle.bench.suite.Variant;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The threshold search behind the {@code fjp-tuned} baselines of the futures suite: for each
 * candidate threshold, times the {@code fjp-tuned} variant in this JVM (warm-up, then timed runs)
 * and prints the median per candidate and the best one. The chosen values are compiled into the
 * programs ({@code tunedCutoff()}) and recorded, with this command, in docs/PERFORMANCE.md.
 */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = "Search the fjp-tuned threshold of futures-suite programs.")
public final class TuneCommand implements Callable<Integer> {

    @Option(names = "--bench", split = ",", paramLabel = "NAME", description = "Programs (default: all of suite futures).")
    List<String> benches;

    @Option(names = "--workers", defaultValue = "2", paramLabel = "N", description = "Workers (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--size", defaultValue = "default", paramLabel = "small|default|large")
    String size;

    @Option(names = "--runs", defaultValue = "5", paramLabel = "N")
    int runs;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "N")
    int warmup;

    @Override
    public Integer call() {
        Size sz = Size.parse(size);
        for (Benchmark<?, ?> b : Suites.get("futures").only(benches, List.of("fjp-tuned")).benchmarks()) {
            tune(b, sz);
        }
        return 0;
    }

    private <I, R> void tune(Benchmark<I, R> b, Size sz) {
        FutureProgram<I, R> p = (FutureProgram<I, R>) unwrap(b);
        Variant<I, R> v = b.variant("fjp-tuned");
        I input = b.prepare(sz);
        String key = "spindle.bench.cutoff." + b.name();
        String before = System.getProperty(key);
        double bestMs = Double.MAX_VALUE;
        int best = -1;
        List<String> lines = new ArrayList<>();
        for (int c : p.tuningCandidates()) {
            System.setProperty(key, Integer.toString(c));
            double[] t = new double[runs];
            try (Variant.Instance<I, R> inst = v.open(workers)) {
                for (int i = 0; i < warmup + runs; i++) {
                    I in = b.fresh(input);
                    long t0 = System.nanoTime();
                    inst.run(in);
                    long t1 = System.nanoTime();
                    if (i >= warmup) {
                        t[i - warmup] = (t1 - t0) / 1e6;
                    }
                }
            }
            Arrays.sort(t);
            double med = t[runs / 2];
            lines.add(String.format(Locale.ROOT, "  %s cutoff %-8d median %8.2f ms", b.name(), c, med));
            System.out.println(lines.get(lines.size() - 1));
            if (med < bestMs) {
                bestMs = med;
                best = c;
            }
        }
        if (before == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, before);
        }
        System.out.printf(Locale.ROOT, "%s: best cutoff %d (%.2f ms at %d workers, size %s); compiled-in value %d%n",
                b.name(), best, bestMs, workers, sz.label(), p.compiledCutoff());
    }

    private static Benchmark<?, ?> unwrap(Benchmark<?, ?> b) {
        for (Benchmark<?, ?> x : Suites.get("futures").benchmarks()) {
            if (x.name().equals(b.name())) {
                return x;
            }
        }
        throw new CommandLine.ParameterException(new CommandLine(new TuneCommand()), "no program " + b.name());
    }
}
