package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Suites;
import dev.spindle.bench.suite.Target;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Judges the issues' performance targets on runs saved by {@code ./spindle bench}: one run gives the
 * table the bench command printed; several give, per target, its figure in every run, their median
 * and in how many runs it was met — how a target that sits at its line on a noisy host is quoted.
 */
@Command(name = "targets", mixinStandardHelpOptions = true,
        description = {"Judge the issues' performance targets on saved runs (each DIR's results.json, or the file).",
                "With several runs: each target's figure in every run, their median, and in how many runs it was met.",
                "--markdown prints the same as a Markdown table, as docs/PERFORMANCE.md keeps it."})
public final class TargetsCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "DIR|FILE", description = "A --out directory of ./spindle bench, or its results.json.")
    List<Path> runs;

    @CommandLine.Option(names = "--markdown", description = "Print a Markdown table instead of text.")
    boolean markdown;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<String> names = new ArrayList<>();
        List<List<Target.Outcome>> judged = new ArrayList<>();
        for (Path p : runs) {
            Path file = Files.isDirectory(p) ? p.resolve("results.json") : p;
            Report r;
            try {
                r = load(file);
            } catch (IOException | IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), file + ": " + e.getMessage());
            }
            Set<String> suiteNames = new LinkedHashSet<>();
            Set<String> sizes = new LinkedHashSet<>();
            r.rows().forEach(m -> {
                suiteNames.add(m.suite());
                sizes.add(m.size());
            });
            if (!sizes.equals(Set.of(Size.DEFAULT.label()))) {
                System.out.println(file + ": not judged — the targets are set for size default, this run has " + sizes);
                continue;
            }
            List<Suite> suites = new ArrayList<>();
            for (String s : suiteNames) {
                try {
                    suites.add(Suites.get(s));
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), file + ": " + e.getMessage());
                }
            }
            names.add(file + " (" + r.startedAt() + ")");
            judged.add(TargetTable.evaluate(r, suites));
        }
        if (judged.size() == 1) {
            System.out.println(names.get(0));
            System.out.print(markdown ? TargetTable.markdown(judged.get(0), Size.DEFAULT) : TargetTable.text(judged.get(0), Size.DEFAULT));
        } else if (!judged.isEmpty()) {
            System.out.print(markdown ? acrossMarkdown(names, judged) : across(names, judged));
        }
        return 0;
    }

    /** Each target measured in at least one run, by its issue and description: its outcome per run (null where not measured). */
    private static Map<String, Target.Outcome[]> byTarget(List<List<Target.Outcome>> judged) {
        Map<String, Target.Outcome[]> byTarget = new LinkedHashMap<>();
        for (int i = 0; i < judged.size(); i++) {
            for (Target.Outcome o : judged.get(i)) {
                if (o.measured()) {
                    byTarget.computeIfAbsent("#" + o.target().issue() + "  " + o.target().describe(),
                            k -> new Target.Outcome[judged.size()])[i] = o;
                }
            }
        }
        return byTarget;
    }

    /** One target across the runs: its figures' median, whether the median meets it, and in how many runs it was met. */
    private record AcrossRuns(Target target, double median, int met, int measured) {
        static AcrossRuns of(Target.Outcome[] outcomes) {
            List<Double> values = new ArrayList<>();
            int met = 0;
            Target t = null;
            for (Target.Outcome o : outcomes) {
                if (o != null) {
                    t = o.target();
                    values.add(o.reading().orElseThrow().value());
                    met += o.met() ? 1 : 0;
                }
            }
            return new AcrossRuns(t, Report.median(values).orElseThrow(), met, values.size());
        }

        boolean medianMet() {
            return target.metBy(median);
        }

        String verdict() {
            return medianMet() ? "met" : "missed";
        }
    }

    /**
     * Each target measured in at least one run: its figure in each run ("-" where not measured), the
     * median of those, and in how many of them it was met.
     */
    static String across(List<String> names, List<List<Target.Outcome>> judged) {
        Map<String, Target.Outcome[]> byTarget = byTarget(judged);
        StringBuilder sb = new StringBuilder("Targets over " + judged.size() + " runs:\n");
        for (int i = 0; i < names.size(); i++) {
            sb.append("  run ").append(i + 1).append(": ").append(names.get(i)).append('\n');
        }
        int w = byTarget.keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Map.Entry<String, Target.Outcome[]> e : byTarget.entrySet()) {
            StringBuilder cells = new StringBuilder();
            for (Target.Outcome o : e.getValue()) {
                cells.append(String.format("%7s", o == null ? "-" : o.value() + (o.met() ? " " : "*")));
            }
            AcrossRuns a = AcrossRuns.of(e.getValue());
            sb.append(String.format(Locale.ROOT, "  %-" + w + "s %s   median %s (%s), met in %d of %d%n", e.getKey(), cells,
                    Target.format(a.median()), a.verdict(), a.met(), a.measured()));
        }
        return sb.append("  (* = missed in that run; - = not measured)\n").toString();
    }

    /** What {@link #across} prints, as a Markdown table: one row per target, one column per run. */
    static String acrossMarkdown(List<String> names, List<List<Target.Outcome>> judged) {
        Map<String, Target.Outcome[]> byTarget = byTarget(judged);
        StringBuilder sb = new StringBuilder("Targets over " + judged.size() + " runs (**bold** = missed in that run; - = not measured):\n\n");
        for (int i = 0; i < names.size(); i++) {
            sb.append("- run ").append(i + 1).append(": ").append(names.get(i)).append('\n');
        }
        sb.append("\n| issue | target |");
        for (int i = 0; i < names.size(); i++) {
            sb.append(" run ").append(i + 1).append(" |");
        }
        sb.append(" median | met in |\n|---|---|").append("---:|".repeat(names.size())).append("---:|---:|\n");
        for (Target.Outcome[] outcomes : byTarget.values()) {
            AcrossRuns a = AcrossRuns.of(outcomes);
            sb.append("| #").append(a.target().issue()).append(" | ").append(a.target().describe()).append(" |");
            for (Target.Outcome o : outcomes) {
                sb.append(' ').append(o == null ? "-" : o.met() ? o.value() : "**" + o.value() + "**").append(" |");
            }
            String median = Target.format(a.median());
            sb.append(' ').append(a.medianMet() ? median : "**" + median + "**").append(" | ")
                    .append(a.met()).append(" of ").append(a.measured()).append(" |\n");
        }
        return sb.toString();
    }

    /**
     * Reads a results.json back into a report: the rows' medians, counters and verdicts, which is
     * all a target reads.
     *
     * @param file a results.json written by the bench command
     * @return its rows
     * @throws IOException              if the file cannot be read
     * @throws IllegalArgumentException if it is not such a file
     */
    @SuppressWarnings("unchecked")
    static Report load(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no such file (a --out directory of ./spindle bench holds results.json)");
        }
        Object doc = JsonReader.parse(Files.readString(file));
        if (!(doc instanceof List<?> rows) || rows.isEmpty()) {
            throw new IllegalArgumentException("not a results.json of ./spindle bench: expected a non-empty array of rows");
        }
        Map<String, Object> first = (Map<String, Object>) rows.get(0);
        Report r = new Report(text(first, "jdk"), text(first, "date"), 0);
        for (Object o : rows) {
            if (!(o instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("not a results.json of ./spindle bench: a row is not an object");
            }
            Map<String, Object> m = (Map<String, Object>) o;
            Map<String, Double> counters = new LinkedHashMap<>();
            if (m.get("stats") instanceof Map<?, ?> stats) {
                stats.forEach((k, v) -> {
                    if (v instanceof Double d) {
                        counters.put((String) k, d);
                    }
                });
            }
            double median = number(m, "median_ms");
            r.add(new Measurement(text(m, "suite"), text(m, "benchmark"), text(m, "description"), text(m, "variant"),
                    (int) number(m, "workers"), text(m, "size"), (int) number(m, "runs"), median,
                    m.get("min_ms") instanceof Double d ? d : median, m.get("max_ms") instanceof Double d ? d : median,
                    Boolean.TRUE.equals(m.get("verified")), (String) m.get("mismatch"), counters, (String) m.get("error"),
                    false, new double[0], m.get("forks") instanceof Double d ? d.intValue() : 1));
        }
        return r;
    }

    private static String text(Map<String, Object> m, String k) {
        if (!(m.get(k) instanceof String s)) {
            throw new IllegalArgumentException("not a results.json of ./spindle bench: a row has no text '" + k + "'");
        }
        return s;
    }

    private static double number(Map<String, Object> m, String k) {
        Object v = m.get(k);
        if (v == null && k.equals("median_ms") && m.get("error") != null) {
            return Double.NaN;                       // a row that did not run to the end
        }
        if (!(v instanceof Double d)) {
            throw new IllegalArgumentException("not a results.json of ./spindle bench: a row has no number '" + k + "'");
        }
        return d;
    }
}
