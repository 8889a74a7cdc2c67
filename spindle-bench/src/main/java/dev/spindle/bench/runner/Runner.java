package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Benchmark;
import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Variant;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures suites: for each benchmark the seq variant first (its median is Ts and its answer the
 * reference), then every other variant at every worker count: warm-up runs, then timed runs on a
 * fresh copy of the input (copying is not timed). Every run's answer is compared with the
 * reference; a mismatch is recorded and fails the invocation.
 */
final class Runner {
    private final Size size;
    private final int[] workers;
    private final int runs;
    private final int warmup;
    private final Progress progress;
    private final Report report;

    Runner(Size size, int[] workers, int runs, int warmup, Progress progress, Report report) {
        this.size = size;
        this.workers = workers;
        this.runs = runs;
        this.warmup = warmup;
        this.progress = progress;
        this.report = report;
    }

    static long steps(List<Suite> suites, int[] workers, int runs, int warmup) {
        long n = 0;
        for (Suite s : suites) {
            for (Benchmark<?, ?> b : s.benchmarks()) {
                for (Variant<?, ?> v : b.variants()) {
                    n += (long) (v.usesWorkers() ? workers.length : 1) * (runs + warmup);
                }
            }
        }
        return n;
    }

    void run(Suite suite) {
        for (Benchmark<?, ?> b : suite.benchmarks()) {
            runBenchmark(suite, b);
        }
    }

    private <I, R> void runBenchmark(Suite suite, Benchmark<I, R> b) {
        progress.label(b.name() + ": preparing input");
        I input = b.prepare(size);
        List<Variant<I, R>> variants = b.variants();
        if (variants.isEmpty() || !variants.get(0).name().equals("seq")) {
            throw new IllegalStateException(b.name() + ": the first variant must be 'seq'");
        }
        Object[] reference = new Object[1];
        int maxWorkers = Arrays.stream(workers).max().orElse(1);
        for (Variant<I, R> v : variants) {
            int[] ps = v.usesWorkers() ? workers : new int[]{v.name().equals("seq") ? 1 : maxWorkers};
            for (int p : ps) {
                report.add(measure(suite, b, v, p, input, reference));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private <I, R> Measurement measure(Suite suite, Benchmark<I, R> b, Variant<I, R> v, int p, I input, Object[] reference) {
        String what = b.name() + " " + v.name() + " P=" + p;
        double[] times = new double[runs];
        String mismatch = null;
        Map<String, Double> perRun = new LinkedHashMap<>();
        try (Variant.Instance<I, R> inst = v.open(p)) {
            for (int i = 0; i < warmup + runs; i++) {
                boolean timed = i >= warmup;
                progress.label(what + (timed ? " run " + (i - warmup + 1) + "/" + runs : " warm-up " + (i + 1) + "/" + warmup));
                I in = b.fresh(input);
                Map<String, Long> before = timed && i == warmup ? inst.counters() : null;
                if (before != null) {
                    before.forEach((k, val) -> perRun.put(k, -(double) val));
                }
                long t0 = System.nanoTime();
                R r = inst.run(in);
                long t1 = System.nanoTime();
                if (timed) {
                    times[i - warmup] = (t1 - t0) / 1e6;
                }
                if (reference[0] == null) {
                    reference[0] = r;
                } else if (mismatch == null) {
                    mismatch = b.mismatch((R) reference[0], r);
                }
                progress.step();
            }
            Map<String, Long> after = inst.counters();
            after.forEach((k, val) -> perRun.merge(k, (double) val, Double::sum));
            perRun.replaceAll((k, val) -> val / runs);
        }
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
        Measurement m = new Measurement(suite.name(), b.name(), b.describe(size), v.name(), p, size.label(), runs,
                median, sorted[0], sorted[sorted.length - 1], mismatch == null, mismatch, perRun);
        progress.finished(String.format(java.util.Locale.ROOT, "%-10s %-8s P=%-2d median %s ms%s", b.name(), v.name(), p,
                Report.ms(median), mismatch == null ? "" : "  MISMATCH: " + mismatch));
        if (mismatch != null) {
            System.err.println("VERIFICATION FAILED: " + what + ": " + mismatch);
        }
        return m;
    }

    static List<Suite> resolve(List<String> names) {
        List<Suite> out = new ArrayList<>();
        for (String n : names) {
            out.add(dev.spindle.bench.suite.Suites.get(n));
        }
        return out;
    }
}
