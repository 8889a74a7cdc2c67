package dev.spindle.bench.jit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link CompiledMethodDump} as assembly: GNU {@code objdump} disassembles its bytes at their
 * own addresses ({@code -b binary --adjust-vma}), and HotSpot's notes are put back before the
 * instruction they precede, as {@code ;; note} lines. This is how to read what C2 made of a method
 * on a machine without HotSpot's {@code hsdis} plug-in, which no JDK build ships; {@code objdump}
 * comes with binutils.
 */
public final class Disassembler {
    private static final Pattern INSTRUCTION = Pattern.compile("^\\s*([0-9a-f]+):\\t");
    private static final long TIMEOUT_SECONDS = 60;

    private final String objdump;

    /** @param objdump the objdump command (a name on PATH, or a path) */
    public Disassembler(String objdump) {
        this.objdump = objdump;
    }

    /**
     * The objdump machine name for a JVM architecture ({@code os.arch}).
     *
     * @param osArch {@code amd64}, {@code x86_64} or {@code aarch64}
     * @return objdump's {@code -m} value
     * @throws IllegalArgumentException naming the architecture, for any other
     */
    public static String machine(String osArch) {
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "i386:x86-64";
            case "aarch64", "arm64" -> "aarch64";
            default -> throw new IllegalArgumentException("no objdump machine known for architecture '" + osArch
                    + "': pass --arch amd64 or aarch64 if the log came from such a machine");
        };
    }

    /**
     * The listing: objdump's lines, with each note of the dump on its own {@code ;; } line right
     * before the instruction at its address. x86 code is shown in Intel syntax.
     *
     * @param dump    the method
     * @param machine objdump's machine ({@link #machine})
     * @return the listing
     * @throws IOException if objdump cannot be run (the message says what to install) or fails
     */
    public String listing(CompiledMethodDump dump, String machine) throws IOException {
        Path bin = Files.createTempFile("spindle-machcode", ".bin");
        Path listing = Files.createTempFile("spindle-machcode", ".txt");
        try {
            Files.write(bin, dump.code());
            List<String> cmd = new ArrayList<>(List.of(objdump, "-D", "-b", "binary", "-m", machine,
                    "--adjust-vma=0x" + Long.toHexString(dump.start())));
            if (machine.startsWith("i386")) {
                cmd.addAll(List.of("-M", "intel"));
            }
            cmd.add(bin.toString());
            return merge(run(cmd, listing), dump.notes());
        } finally {
            Files.deleteIfExists(bin);
            Files.deleteIfExists(listing);
        }
    }

    /** Runs objdump with its output into {@code out} (a file, so that the wait below is the only one, and bounded). */
    private String run(List<String> cmd, Path out) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        } catch (IOException e) {
            throw new IOException("cannot run '" + objdump + "' (" + e.getMessage()
                    + "): install GNU binutils (for example: apt-get install binutils), or pass --objdump PATH", e);
        }
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(objdump + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for " + objdump, e);
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + text.strip());
        }
        return text;
    }

    /**
     * objdump's output with the notes put before their instructions; a note at an address where
     * no instruction starts (objdump decoded across it) goes before the next instruction, marked
     * with its address. objdump's own header lines are dropped.
     */
    static String merge(String objdumpOutput, Map<Long, List<String>> notes) {
        StringBuilder sb = new StringBuilder();
        Iterator<Map.Entry<Long, List<String>>> pending = new TreeMap<>(notes).entrySet().iterator();
        Map.Entry<Long, List<String>> next = pending.hasNext() ? pending.next() : null;
        for (String line : objdumpOutput.split("\n", -1)) {
            Matcher m = INSTRUCTION.matcher(line);
            if (!m.find()) {
                continue;
            }
            long address = Long.parseUnsignedLong(m.group(1), 16);
            while (next != null && next.getKey() <= address) {
                String at = next.getKey() == address ? "" : "(at 0x" + Long.toHexString(next.getKey()) + ") ";
                for (String note : next.getValue()) {
                    sb.append("        ;; ").append(at).append(note).append('\n');
                }
                next = pending.hasNext() ? pending.next() : null;
            }
            sb.append(line.stripTrailing()).append('\n');
        }
        while (next != null) {
            for (String note : next.getValue()) {
                sb.append("        ;; (at 0x").append(Long.toHexString(next.getKey())).append(") ").append(note).append('\n');
            }
            next = pending.hasNext() ? pending.next() : null;
        }
        return sb.toString();
    }
}
