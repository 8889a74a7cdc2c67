package dev.spindle.bench.suite;

import java.util.List;

/**
 * A named group of benchmarks (one per paper or issue).
 *
 * @param name       the suite's name, as given to {@code --suite}
 * @param title      one line saying where the programs come from
 * @param benchmarks the programs
 */
public record Suite(String name, String title, List<Benchmark<?, ?>> benchmarks) {
}
