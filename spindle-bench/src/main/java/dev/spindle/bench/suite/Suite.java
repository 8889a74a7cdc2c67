package dev.spindle.bench.suite;

import java.util.List;

/**
 * A named group of benchmarks (one per paper or issue) and the performance targets that
 * its runs are judged by.
 *
 * @param name       the suite's name, as given to {@code --suite}
 * @param title      one line saying where the programs come from
 * @param benchmarks the programs
 * @param targets    the targets its runs are judged by, at the default size
 */
public record Suite(String name, String title, List<Benchmark<?, ?>> benchmarks, List<Target> targets) {

    /** @throws NullPointerException if a component is null */
    public Suite {
        java.util.Objects.requireNonNull(name, "name");
        java.util.Objects.requireNonNull(title, "title");
        benchmarks = List.copyOf(benchmarks);
        targets = List.copyOf(targets);
    }

    /** A suite without targets. */
    public Suite(String name, String title, List<Benchmark<?, ?>> benchmarks) {
        this(name, title, benchmarks, List.of());
    }

    /**
     * This suite restricted to some benchmarks and variants (seq always stays: it is the reference).
     *
     * @param benchNames   benchmark names to keep, or null for all
     * @param variantNames variant names to keep besides seq, or null for all
     * @return the restricted suite
     * @throws IllegalArgumentException naming an unknown benchmark or variant
     */
    public Suite only(List<String> benchNames, List<String> variantNames) {
        List<Benchmark<?, ?>> out = new java.util.ArrayList<>();
        java.util.Set<String> known = new java.util.LinkedHashSet<>();
        java.util.Set<String> knownVariants = new java.util.LinkedHashSet<>();
        for (Benchmark<?, ?> b : benchmarks) {
            known.add(b.name());
            b.variants().forEach(v -> knownVariants.add(v.name()));
        }
        if (benchNames != null) {
            for (String n : benchNames) {
                if (!known.contains(n.trim())) {
                    throw new IllegalArgumentException("suite " + name + " has no benchmark '" + n + "'; it has " + known);
                }
            }
        }
        if (variantNames != null) {
            for (String n : variantNames) {
                if (!knownVariants.contains(n.trim())) {
                    throw new IllegalArgumentException("suite " + name + " has no variant '" + n + "'; it has " + knownVariants);
                }
            }
        }
        for (Benchmark<?, ?> b : benchmarks) {
            if (benchNames == null || benchNames.stream().anyMatch(n -> n.trim().equals(b.name()))) {
                out.add(variantNames == null ? b : Filtered.of(b, variantNames));
            }
        }
        return new Suite(name, title, out, targets);
    }

    /** A benchmark showing only some of its variants. */
    private record Filtered<I, R>(Benchmark<I, R> inner, List<String> keep) implements Benchmark<I, R> {
        static <I, R> Benchmark<I, R> of(Benchmark<I, R> b, List<String> keep) {
            return new Filtered<>(b, keep.stream().map(String::trim).toList());
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public I prepare(Size size) {
            return inner.prepare(size);
        }

        @Override
        public I fresh(I input) {
            return inner.fresh(input);
        }

        @Override
        public List<Variant<I, R>> variants() {
            return inner.variants().stream().filter(v -> v.name().equals("seq") || keep.contains(v.name())).toList();
        }

        @Override
        public String mismatch(R expected, R actual) {
            return inner.mismatch(expected, actual);
        }

        @Override
        public String describe(Size size) {
            return inner.describe(size);
        }

        @Override
        public int warmupRuns() {
            return inner.warmupRuns();
        }
    }
}
