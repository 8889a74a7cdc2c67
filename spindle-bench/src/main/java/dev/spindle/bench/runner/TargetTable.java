package dev.spindle.bench.runner;

import dev.spindle.bench.suite.Size;
import dev.spindle.bench.suite.Suite;
import dev.spindle.bench.suite.Target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The issues' performance targets as one run found them: each target of the suites run, read from
 * this run's medians, met or missed, with the medians it came from. Printed after the results
 * table, written to results.md and targets.json. Targets are promises about the default size: a
 * run of another size is not judged.
 */
final class TargetTable {
    private TargetTable() {
    }

    /**
     * @param r      the run
     * @param suites the suites it ran
     * @return every target of those suites, in declaration order, as this run found it
     */
    static List<Target.Outcome> evaluate(Report r, List<Suite> suites) {
        List<Target.Outcome> out = new ArrayList<>();
        for (Suite s : suites) {
            for (Target t : s.targets()) {
                out.add(t.evaluate(r.figures(s.name())));
            }
        }
        return out;
    }

    /** The outcomes this run measured. */
    private static List<Target.Outcome> measured(List<Target.Outcome> outcomes) {
        return outcomes.stream().filter(Target.Outcome::measured).toList();
    }

    /** Why nothing is judged, or null if the table applies. */
    private static String notJudged(List<Target.Outcome> outcomes, Size size) {
        if (outcomes.isEmpty()) {
            return "";
        }
        if (size != Size.DEFAULT) {
            return "Targets: not judged — they are set for --size default, and this run used " + size.label() + ".\n";
        }
        return null;
    }

    /** One line on the targets whose rows did not run, or nothing. */
    private static String unmeasuredLine(List<Target.Outcome> outcomes) {
        long n = outcomes.size() - measured(outcomes).size();
        return n == 0 ? "" : n + " target(s) of the suites run were not measured: their rows were not in this run"
                + " (--bench, --variant, --workers).\n";
    }

    private static String summary(List<Target.Outcome> m) {
        long met = m.stream().filter(Target.Outcome::met).count();
        return String.format(Locale.ROOT, "Targets: %d measured, %d met, %d missed (figures from this run's medians;"
                + " the issues set them for this 2-core machine).%n", m.size(), met, m.size() - met);
    }

    /**
     * @param outcomes what {@link #evaluate} found
     * @param size     the run's problem size
     * @return the terminal table, or an empty string if no suite run has targets
     */
    static String text(List<Target.Outcome> outcomes, Size size) {
        String not = notJudged(outcomes, size);
        if (not != null) {
            return not;
        }
        List<Target.Outcome> m = measured(outcomes);
        StringBuilder sb = new StringBuilder(summary(m));
        int w = m.stream().mapToInt(o -> o.target().describe().length()).max().orElse(0);
        for (Target.Outcome o : m) {
            sb.append(String.format(Locale.ROOT, "  #%d  %-" + w + "s  %8s  %-6s  %s%n", o.target().issue(),
                    o.target().describe(), o.value(), o.status(), o.reading().get().detail()));
        }
        return sb.append(unmeasuredLine(outcomes)).toString();
    }

    /**
     * @param outcomes what {@link #evaluate} found
     * @param size     the run's problem size
     * @return a "Targets" section for results.md, or an empty string if no suite run has targets
     */
    static String markdown(List<Target.Outcome> outcomes, Size size) {
        if (outcomes.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n## Targets\n\n");
        String not = notJudged(outcomes, size);
        if (not != null) {
            return sb.append(not).toString();
        }
        List<Target.Outcome> m = measured(outcomes);
        sb.append(summary(m)).append('\n');
        sb.append("| issue | target | measured | status | from |\n|---|---|---:|---|---|\n");
        for (Target.Outcome o : m) {
            sb.append("| #").append(o.target().issue()).append(" | ").append(o.target().describe()).append(" | ")
                    .append(o.value()).append(" | ").append(o.met() ? "met" : "**missed**").append(" | ")
                    .append(o.reading().get().detail()).append(" |\n");
        }
        String u = unmeasuredLine(outcomes);
        return u.isEmpty() ? sb.toString() : sb.append('\n').append(u).toString();
    }

    /**
     * Writes every target of the suites run, measured or not, as a JSON array.
     *
     * @param outcomes what {@link #evaluate} found
     * @param size     the run's problem size
     * @param file     where
     * @throws IOException if the file cannot be written
     */
    static void writeJson(List<Target.Outcome> outcomes, Size size, Path file) throws IOException {
        boolean judged = size == Size.DEFAULT;
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < outcomes.size(); i++) {
            Target.Outcome o = outcomes.get(i);
            Target t = o.target();
            sb.append("  {\"issue\": ").append(t.issue())
                    .append(", \"target\": ").append(ReportWriter.quote(t.describe()))
                    .append(", \"limit\": ").append(t.limit())
                    .append(", \"bound\": ").append(ReportWriter.quote(t.bound().name().toLowerCase(Locale.ROOT)))
                    .append(", \"status\": ").append(ReportWriter.quote(judged ? o.status() : "not judged: size " + size.label()));
            o.reading().ifPresent(r -> sb.append(", \"value\": ").append(String.format(Locale.ROOT, "%.4f", r.value()))
                    .append(", \"from\": ").append(ReportWriter.quote(r.detail())));
            sb.append('}').append(i + 1 < outcomes.size() ? ",\n" : "\n");
        }
        Files.writeString(file, sb.append("]\n").toString());
    }
}
