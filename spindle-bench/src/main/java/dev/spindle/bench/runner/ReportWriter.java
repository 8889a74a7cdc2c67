package dev.spindle.bench.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Writes a {@link Report} as a terminal table, results.json and results.md. */
final class ReportWriter {
    private ReportWriter() {
    }

    private static final String[] HEAD = {"benchmark", "variant", "P", "median ms", "min", "max",
            "Ts ms", "T1 ms", "Ts/T1", "T1/TP", "Ts/TP", "ceiling", "rt ns", "steals/run", "ok"};
    /** Extra columns when some row counts lazy futures. */
    private static final String[] FUTURE_HEAD = {"B/future", "futures/run", "promoted", "stolen"};
    /** Extra columns when some row has the Spindle workers' time split. */
    private static final String[] TIME_HEAD = {"work ms", "wait ms"};
    /** Extra columns when some row counts parallel loops. */
    private static final String[] LOOP_HEAD = {"B/loop", "loops/run"};

    private static String[] cells(Report r, Measurement m) {
        Double steals = m.counters().get("steals");
        if (m.error() != null) {
            return new String[]{m.benchmark(), m.variant(), Integer.toString(m.workers()), "-", "-", "-",
                    r.ts(m).map(Report::ms).orElse("-"), "-", "-", "-", "-", Report.fmt(r.ceiling(m)), nanos(r.roundTrip(m)), "-",
                    (m.tolerated() ? "n/a: " : "ERROR: ") + m.error()};
        }
        return new String[]{m.benchmark(), m.variant(), Integer.toString(m.workers()), Report.ms(m.medianMs()),
                Report.ms(m.minMs()), Report.ms(m.maxMs()), r.ts(m).map(Report::ms).orElse("-"),
                r.t1(m).map(Report::ms).orElse("-"), Report.fmt(r.tsOverT1(m)), Report.fmt(r.t1OverTp(m)),
                Report.fmt(r.tsOverTp(m)), Report.fmt(r.ceiling(m)), nanos(r.roundTrip(m)), steals == null ? "-" : String.format(Locale.ROOT, "%.0f", steals),
                m.verified() ? "yes" : "NO"};
    }

    private static String nanos(Optional<Double> ns) {
        return ns.map(v -> String.format(Locale.ROOT, "%.0f", v)).orElse("-");
    }

    /**
     * Bytes allocated per future (all threads, timed runs), or null if the row counts no futures.
     *
     * @param m a row
     * @return bytes per future
     */
    static Double bytesPerFuture(Measurement m) {
        double b = Measurement.bytesPerFuture(m.counters());
        return Double.isNaN(b) ? null : b;
    }

    /** Fork medians further apart than this (slowest over fastest) are listed under the table. */
    static final double FORK_TIME_RATIO = 1.10;
    /** Bytes per future further apart than this between forks are listed under the table. */
    static final double FORK_BYTES = 8.0;

    /**
     * One line per row whose forks disagree ({@link Measurement#forksDisagree}): each fork's median
     * and, for a row that counts futures, its bytes per future — so that a JVM that compiled the
     * code into a slower or allocating form shows, where the pooled median would hide it.
     *
     * @param r the report
     * @return the lines, each ending in a newline; empty if every row's forks agree
     */
    static String forkNotes(Report r) {
        StringBuilder sb = new StringBuilder();
        for (Measurement m : r.rows()) {
            if (m.error() != null || !m.forksDisagree(FORK_TIME_RATIO, FORK_BYTES)) {
                continue;
            }
            sb.append("- ").append(m.benchmark()).append(' ').append(m.variant()).append(" P=").append(m.workers())
                    .append(": fork medians ").append(join(m.forkMediansMs(), Report::ms)).append(" ms");
            if (java.util.Arrays.stream(m.forkBytesPerFuture()).anyMatch(b -> !Double.isNaN(b))) {
                sb.append("; bytes per future ").append(join(m.forkBytesPerFuture(),
                        b -> Double.isNaN(b) ? "-" : String.format(Locale.ROOT, "%.1f", b)));
            }
            if (java.util.Arrays.stream(m.forkCeilings()).anyMatch(c -> !Double.isNaN(c))) {
                sb.append("; machine ceilings ").append(join(m.forkCeilings(),
                        c -> Double.isNaN(c) ? "-" : String.format(Locale.ROOT, "%.2f", c)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The figures, each formatted by {@code cell}, comma separated. */
    private static String join(double[] v, java.util.function.DoubleFunction<String> cell) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            sb.append(i > 0 ? ", " : "").append(cell.apply(v[i]));
        }
        return sb.toString();
    }

    private static final String FORK_NOTES_HEAD = String.format(Locale.ROOT, "Forks that disagree (medians more than"
            + " %.0f%% apart, or bytes per future more than %.0f apart: separate JVMs compile the same code"
            + " differently, or meet a slower phase of a shared host, and the row's median pools every fork's"
            + " runs; a fork's machine ceiling, measured in its JVM right after its runs, shows the host's phase):\n",
            (FORK_TIME_RATIO - 1) * 100, FORK_BYTES);

    /**
     * Bytes allocated per parallel loop (all threads, timed runs), or null if the row counts no loops.
     *
     * @param m a row
     * @return bytes per loop
     */
    static Double bytesPerLoop(Measurement m) {
        Double loops = m.counters().get("loops");
        Double bytes = m.counters().get("alloc_bytes");
        return loops == null || bytes == null || loops <= 0 ? null : bytes / loops;
    }

    private static String[] loopCells(Measurement m) {
        Double l = m.counters().get("loops");
        if (l == null || m.error() != null) {
            return new String[]{"-", "-"};
        }
        return new String[]{String.format(Locale.ROOT, "%.0f", bytesPerLoop(m)), String.format(Locale.ROOT, "%.0f", l)};
    }

    private static boolean countsLoops(Report r) {
        return r.rows().stream().anyMatch(m -> m.counters().containsKey("loops"));
    }

    /**
     * Per run, summed over the workers: time computing (in tasks, minus waits) and time waiting in
     * joins and touches with nothing to run; or dashes for a row without Spindle's time split.
     */
    private static String[] timeCells(Measurement m) {
        Double busy = m.counters().get("busy_us");
        Double wait = m.counters().get("wait_us");
        if (busy == null || wait == null || m.error() != null) {
            return new String[]{"-", "-"};
        }
        return new String[]{Report.ms((busy - wait) / 1000.0), Report.ms(wait / 1000.0)};
    }

    private static boolean splitsTime(Report r) {
        return r.rows().stream().anyMatch(m -> m.counters().containsKey("busy_us"));
    }

    private static String[] futureCells(Measurement m) {
        Double f = m.counters().get("futures");
        if (f == null || m.error() != null) {
            return new String[]{"-", "-", "-", "-"};
        }
        return new String[]{Report.fmt(java.util.Optional.ofNullable(bytesPerFuture(m))),
                String.format(Locale.ROOT, "%.0f", f),
                String.format(Locale.ROOT, "%.0f", m.counters().getOrDefault("futures_promoted", 0.0)),
                String.format(Locale.ROOT, "%.0f", m.counters().getOrDefault("futures_stolen", 0.0))};
    }

    private static boolean countsFutures(Report r) {
        return r.rows().stream().anyMatch(m -> m.counters().containsKey("futures"));
    }

    private static String[] head(Report r) {
        String[] h = splitsTime(r) ? concat(HEAD, TIME_HEAD) : HEAD;
        h = countsFutures(r) ? concat(h, FUTURE_HEAD) : h;
        return countsLoops(r) ? concat(h, LOOP_HEAD) : h;
    }

    private static String[] row(Report r, Measurement m) {
        String[] c = splitsTime(r) ? concat(cells(r, m), timeCells(m)) : cells(r, m);
        c = countsFutures(r) ? concat(c, futureCells(m)) : c;
        return countsLoops(r) ? concat(c, loopCells(m)) : c;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static String table(Report r) {
        String[] head = head(r);
        int[] w = new int[head.length];
        for (int i = 0; i < head.length; i++) {
            w[i] = head[i].length();
        }
        for (Measurement m : r.rows()) {
            String[] c = row(r, m);
            for (int i = 0; i < c.length; i++) {
                w[i] = Math.max(w[i], c[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        appendRow(sb, head, w);
        StringBuilder rule = new StringBuilder();
        for (int x : w) {
            rule.append("-".repeat(x)).append("  ");
        }
        sb.append(rule.toString().stripTrailing()).append('\n');
        for (Measurement m : r.rows()) {
            appendRow(sb, row(r, m), w);
        }
        String notes = forkNotes(r);
        if (!notes.isEmpty()) {
            sb.append('\n').append(FORK_NOTES_HEAD).append(notes);
        }
        return sb.toString();
    }

    private static void appendRow(StringBuilder sb, String[] c, int[] w) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < c.length; i++) {
            String cell = c[i];
            line.append(i < 2 ? pad(cell, w[i]) : lpad(cell, w[i])).append("  ");
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(w - s.length());
    }

    private static String lpad(String s, int w) {
        return " ".repeat(w - s.length()) + s;
    }

    /** results.md, with {@code sections} (already markdown, e.g. the targets) after the table's notes. */
    static void writeMarkdown(Report r, Path file, String command, String sections) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("# Spindle benchmark results\n\n");
        sb.append("- command: `").append(command).append("`\n");
        sb.append("- JDK: ").append(r.jdk()).append("\n");
        sb.append("- date: ").append(r.startedAt()).append("\n");
        sb.append("- available processors: ").append(r.cores()).append("\n\n");
        sb.append('|');
        String[] head = head(r);
        for (String h : head) {
            sb.append(' ').append(h).append(" |");
        }
        sb.append("\n|");
        for (int i = 0; i < head.length; i++) {
            sb.append(i < 2 ? "---|" : "---:|");
        }
        sb.append('\n');
        for (Measurement m : r.rows()) {
            sb.append('|');
            for (String c : row(r, m)) {
                sb.append(' ').append(c).append(" |");
            }
            sb.append('\n');
        }
        sb.append("\nTs = median of the sequential variant; T1 = the variant at one worker; TP = this row.\n");
        sb.append("ceiling = the machine's best speedup at P threads while this benchmark ran: P copies of a"
                + " CPU-bound kernel on P threads against one copy on one (median of the figures taken before"
                + " each round of forks and after the last; P on dedicated cores, less on shared vCPUs).\n");
        sb.append("rt ns = the round trip of a value between two spinning threads while this benchmark ran (median"
                + " of the figures taken with the ceiling): the floor under every steal and every join with a thief."
                + " Rows whose tasks take microseconds (TreeSum-1K) gain or lose most of their speedup with it.\n");
        if (splitsTime(r)) {
            sb.append("work ms, wait ms = per run, summed over Spindle's workers: time in tasks computing, and"
                    + " time in joins and touches waiting with nothing to run (the rest of P x TP is spent"
                    + " searching for work or parked). Work at P workers above the T1 row's shows the machine"
                    + " or the memory slowing the code down, not the scheduler.\n");
        }
        if (countsFutures(r)) {
            sb.append("B/future = bytes allocated by all threads during the timed runs (not the input's fresh copy"
                    + " made before each) / futures created;"
                    + " futures/run, promoted, stolen = Spindle's future counters per run.\n");
        }
        if (countsLoops(r)) {
            sb.append("B/loop = bytes allocated by all threads during the timed runs (not the input's fresh copy"
                    + " made before each) / parallel loops started"
                    + " (including the program's own allocation, e.g. a result array).\n");
        }
        String notes = forkNotes(r);
        if (!notes.isEmpty()) {
            sb.append('\n').append(FORK_NOTES_HEAD).append('\n').append(notes);
        }
        sb.append(sections);
        Files.writeString(file, sb.toString());
    }

    static void writeJson(Report r, Path file) throws IOException {
        StringBuilder sb = new StringBuilder("[\n");
        for (int i = 0; i < r.rows().size(); i++) {
            Measurement m = r.rows().get(i);
            sb.append("  {");
            field(sb, "suite", m.suite()).append(", ");
            field(sb, "benchmark", m.benchmark()).append(", ");
            field(sb, "description", m.description()).append(", ");
            field(sb, "variant", m.variant()).append(", ");
            sb.append("\"workers\": ").append(m.workers()).append(", ");
            field(sb, "size", m.size()).append(", ");
            sb.append("\"runs\": ").append(m.runs()).append(", ");
            sb.append("\"forks\": ").append(m.forks()).append(", ");
            num(sb, "median_ms", m.medianMs()).append(", ");
            num(sb, "min_ms", m.minMs()).append(", ");
            num(sb, "max_ms", m.maxMs()).append(", ");
            numbers(sb, "times_ms", m.timesMs()).append(", ");
            numbers(sb, "fork_medians_ms", m.forkMediansMs()).append(", ");
            numbers(sb, "fork_bytes_per_future", m.forkBytesPerFuture()).append(", ");
            numbers(sb, "fork_machine_ceilings", m.forkCeilings()).append(", ");
            sb.append("\"verified\": ").append(m.verified()).append(", ");
            if (m.mismatch() != null) {
                field(sb, "mismatch", m.mismatch()).append(", ");
            }
            if (m.error() != null) {
                field(sb, "error", m.error()).append(", ");
            }
            opt(sb, "ts_ms", r.ts(m));
            opt(sb, "t1_ms", r.t1(m));
            opt(sb, "ts_over_t1", r.tsOverT1(m));
            opt(sb, "t1_over_tp", r.t1OverTp(m));
            opt(sb, "ts_over_tp", r.tsOverTp(m));
            opt(sb, "machine_ceiling", r.ceiling(m));
            opt(sb, "round_trip_ns", r.roundTrip(m));
            opt(sb, "bytes_per_future", java.util.Optional.ofNullable(bytesPerFuture(m)));
            opt(sb, "bytes_per_loop", java.util.Optional.ofNullable(bytesPerLoop(m)));
            field(sb, "jdk", r.jdk()).append(", ");
            field(sb, "date", r.startedAt()).append(", ");
            sb.append("\"stats\": {");
            int k = 0;
            for (Map.Entry<String, Double> e : m.counters().entrySet()) {
                if (k++ > 0) {
                    sb.append(", ");
                }
                num(sb, e.getKey(), e.getValue());
            }
            sb.append("}}");
            sb.append(i + 1 < r.rows().size() ? ",\n" : "\n");
        }
        sb.append("]\n");
        Files.writeString(file, sb.toString());
    }

    /** A JSON array of numbers to three decimals, null where a figure is not finite. */
    private static StringBuilder numbers(StringBuilder sb, String k, double[] v) {
        return sb.append('"').append(k).append("\": [")
                .append(join(v, x -> Double.isFinite(x) ? String.format(Locale.ROOT, "%.3f", x) : "null")).append(']');
    }

    private static void opt(StringBuilder sb, String k, Optional<Double> v) {
        v.ifPresent(x -> num(sb, k, x).append(", "));
    }

    private static StringBuilder field(StringBuilder sb, String k, String v) {
        return sb.append('"').append(k).append("\": ").append(quote(v));
    }

    private static StringBuilder num(StringBuilder sb, String k, double v) {
        sb.append('"').append(k).append("\": ");
        if (Double.isFinite(v)) {
            sb.append(String.format(Locale.ROOT, "%.4f", v));
        } else {
            sb.append("null");
        }
        return sb;
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
