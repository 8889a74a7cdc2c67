package dev.spindle.bench.runner;

import java.io.PrintStream;

/**
 * A progress bar on an interactive terminal (redrawn in place); elsewhere, one line per finished
 * measurement so CI logs stay readable.
 */
final class Progress {
    /** Prefix of a finished-measurement line sent by a measuring child JVM. */
    static final String LINE = "@@spindle-line ";

    private final PrintStream out;
    private final boolean tty;
    private final boolean child;
    private final long total;
    private long done;
    private String label = "";

    Progress(PrintStream out, long total, boolean tty) {
        this(out, total, tty, false);
    }

    private Progress(PrintStream out, long total, boolean tty, boolean child) {
        this.out = out;
        this.total = Math.max(1, total);
        this.tty = tty;
        this.child = child;
    }

    /** A child JVM's progress: reports steps and lines to the parent through its stdout. */
    static Progress child(PrintStream out) {
        return new Progress(out, 1, false, true);
    }

    void label(String label) {
        this.label = label;
        if (!child) {
            draw();
        }
    }

    void step() {
        done++;
        if (child) {
            out.println(Runner.STEP + " " + label);
            out.flush();
            return;
        }
        draw();
    }

    void finished(String line) {
        if (child) {
            out.println(LINE + line);
            out.flush();
        } else if (!tty) {
            out.println(line);
        }
    }

    private void draw() {
        if (!tty) {
            return;
        }
        int width = 30;
        long shown = Math.min(done, total);          // timed runs made again after a compilation add steps
        int filled = (int) (width * shown / total);
        out.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] "
                + String.format("%3d%% ", 100 * shown / total) + label + "\u001b[K");
        out.flush();
    }

    void close() {
        if (tty) {
            out.print("\r\u001b[K");
            out.flush();
        }
    }
}
