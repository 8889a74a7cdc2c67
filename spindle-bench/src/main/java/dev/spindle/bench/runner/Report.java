package dev.spindle.bench.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The measurements of one runner invocation and the ratios derived from them: Ts (the seq
 * variant's median), T1 (a variant's median at one worker), TP, and Ts/T1, T1/TP, Ts/TP.
 */
public final class Report {
    private final List<Measurement> rows = new ArrayList<>();
    private final String jdk;
    private final String startedAt;
    private final int cores;

    /**
     * @param jdk       the JDK the runner runs on
     * @param startedAt ISO timestamp
     * @param cores     available processors
     */
    public Report(String jdk, String startedAt, int cores) {
        this.jdk = jdk;
        this.startedAt = startedAt;
        this.cores = cores;
    }

    /** Machine ceilings (see {@link MachineCeiling}) measured around each benchmark: "suite/bench" → P → figures. */
    private final java.util.Map<String, java.util.Map<Integer, List<Double>>> ceilings = new java.util.LinkedHashMap<>();

    void addCeiling(String suite, String bench, int workers, double ceiling) {
        ceilings.computeIfAbsent(suite + "/" + bench, k -> new java.util.TreeMap<>())
                .computeIfAbsent(workers, k -> new ArrayList<>()).add(ceiling);
    }

    /**
     * The median machine ceiling measured around the row's benchmark at its worker count.
     *
     * @param m a row
     * @return the ceiling, if measured (rows with more than one worker)
     */
    Optional<Double> ceiling(Measurement m) {
        java.util.Map<Integer, List<Double>> byP = ceilings.get(m.suite() + "/" + m.benchmark());
        List<Double> c = byP == null ? null : byP.get(m.workers());
        if (c == null || c.isEmpty() || m.variant().equals("seq")) {
            return Optional.empty();
        }
        return median(c);
    }

    /** The median of the figures that are numbers, if any. */
    static Optional<Double> median(List<Double> figures) {
        double[] s = figures.stream().mapToDouble(Double::doubleValue).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) {
            return Optional.empty();
        }
        return Optional.of(s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2);
    }

    /** Hand-off latencies (see {@link HandOffLatency}) measured around each benchmark: "suite/bench" → ns figures. */
    private final java.util.Map<String, List<Double>> roundTrips = new java.util.LinkedHashMap<>();

    void addRoundTrip(String suite, String bench, double nanos) {
        roundTrips.computeIfAbsent(suite + "/" + bench, k -> new ArrayList<>()).add(nanos);
    }

    /**
     * The median round trip between two spinning threads measured around the row's benchmark.
     *
     * @param m a row
     * @return nanoseconds, if measured (rows with more than one worker, not seq)
     */
    Optional<Double> roundTrip(Measurement m) {
        List<Double> c = roundTrips.get(m.suite() + "/" + m.benchmark());
        if (c == null || m.workers() < 2 || m.variant().equals("seq")) {
            return Optional.empty();
        }
        return median(c);
    }

    /** @return every ceiling measured, "suite/bench" → P → figures in the order taken */
    java.util.Map<String, java.util.Map<Integer, List<Double>>> ceilings() {
        return ceilings;
    }

    void add(Measurement m) {
        rows.add(m);
    }

    void addAll(List<Measurement> ms) {
        rows.addAll(ms);
    }

    /** @return all measurements, in the order taken */
    public List<Measurement> rows() {
        return rows;
    }

    /** @return the JDK description */
    public String jdk() {
        return jdk;
    }

    /** @return when the run started */
    public String startedAt() {
        return startedAt;
    }

    /** @return the machine's available processors */
    public int cores() {
        return cores;
    }

    /** @return true if every measurement verified */
    public boolean allVerified() {
        return rows.stream().noneMatch(Measurement::fails);
    }

    /** @return Ts for the measurement's benchmark, if the seq variant ran */
    Optional<Double> ts(Measurement m) {
        return find(m.suite(), m.benchmark(), "seq", -1).filter(x -> x.error() == null).map(Measurement::medianMs);
    }

    /** @return T1 of the measurement's variant, if measured at one worker */
    Optional<Double> t1(Measurement m) {
        if (m.variant().equals("seq")) {
            return Optional.of(m.medianMs());
        }
        return find(m.suite(), m.benchmark(), m.variant(), 1).filter(x -> x.error() == null).map(Measurement::medianMs);
    }

    private Optional<Double> ratio(Optional<Double> num, Optional<Double> den) {
        return num.isPresent() && den.isPresent() && den.get() > 0 ? Optional.of(num.get() / den.get()) : Optional.empty();
    }

    /** @return Ts/T1 */
    Optional<Double> tsOverT1(Measurement m) {
        return ratio(ts(m), t1(m));
    }

    /** @return T1/TP */
    Optional<Double> t1OverTp(Measurement m) {
        return ratio(t1(m), tp(m));
    }

    /** @return Ts/TP */
    Optional<Double> tsOverTp(Measurement m) {
        return ratio(ts(m), tp(m));
    }

    private static Optional<Double> tp(Measurement m) {
        return m.error() == null ? Optional.of(m.medianMs()) : Optional.empty();
    }

    /**
     * The rows of one suite as its targets read them: medians and counters of the rows that ran to
     * the end with every answer verified.
     *
     * @param suite the suite's name
     * @return a view of this report's rows of that suite
     */
    dev.spindle.bench.suite.RunFigures figures(String suite) {
        return new dev.spindle.bench.suite.RunFigures() {
            @Override
            public OptionalDouble medianMs(String bench, String variant, int workers) {
                return sound(suite, bench, variant, workers).map(m -> OptionalDouble.of(m.medianMs())).orElse(OptionalDouble.empty());
            }

            @Override
            public OptionalDouble counter(String bench, String variant, int workers, String name) {
                Double v = sound(suite, bench, variant, workers).map(m -> m.counters().get(name)).orElse(null);
                return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
            }
        };
    }

    private Optional<Measurement> sound(String suite, String bench, String variant, int workers) {
        return find(suite, bench, variant, workers).filter(m -> m.error() == null && !m.fails());
    }

    private Optional<Measurement> find(String suite, String bench, String variant, int workers) {
        return rows.stream().filter(r -> r.suite().equals(suite) && r.benchmark().equals(bench)
                && r.variant().equals(variant) && (workers < 0 || r.workers() == workers)).findFirst();
    }

    static String fmt(Optional<Double> v) {
        return v.map(x -> String.format(Locale.ROOT, "%.2f", x)).orElse("-");
    }

    static String ms(double v) {
        return dev.spindle.bench.suite.Figure.ms(v);
    }
}
