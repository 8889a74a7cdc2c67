package dev.spindle.bench.runner;

import java.io.PrintStream;

/**
 * A progress bar on an interactive terminal (redrawn in place); elsewhere, one line per finished
 * measurement so CI logs stay readable.
 */
final class Progress {
    private final PrintStream out;
    private final boolean tty;
    private final long total;
    private long done;
    private String label = "";

    Progress(PrintStream out, long total, boolean tty) {
        this.out = out;
        this.total = Math.max(1, total);
        this.tty = tty;
    }

    void label(String label) {
        this.label = label;
        draw();
    }

    void step() {
        done++;
        draw();
    }

    void finished(String line) {
        if (!tty) {
            out.println(line);
        }
    }

    private void draw() {
        if (!tty) {
            return;
        }
        int width = 30;
        int filled = (int) (width * done / total);
        out.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] "
                + String.format("%3d%% ", 100 * done / total) + label + "\u001b[K");
        out.flush();
    }

    void close() {
        if (tty) {
            out.print("\r\u001b[K");
            out.flush();
        }
    }
}
