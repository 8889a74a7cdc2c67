package dev.spindle.bench.jit;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One compiled method as HotSpot prints it without a disassembler plug-in: its machine code as raw
 * bytes, and the notes HotSpot prints between them (oop maps, the Java frames and bytecodes behind
 * a call or safepoint poll, {@code [Verified Entry Point]} and the like), each at the address it
 * precedes.
 *
 * <p>{@code -XX:+UnlockDiagnosticVMOptions -XX:CompileCommand=print,Class::method} (or
 * {@code -XX:+PrintAssembly}) prints, per compiled method, a header line {@code Compiled method
 * (c2) 636  287   !   4       pkg.Class::method (119 bytes)} and a {@code [MachCode]} …
 * {@code [/MachCode]} section. Without the {@code hsdis} library that section holds lines
 * {@code   0x00007f0797ee1930: 498b 5110 | 4d8b 9768 | …} — the bytes at that address, in groups
 * of four separated by {@code |} — and lines of notes: {@code   0x…: ;   {static_call}} for the
 * address given, {@code ; …} and {@code # …} lines and {@code [Section]} markers for the next
 * bytes. {@link #parse} reads every such method of a log; {@link Disassembler} turns one into an
 * assembly listing with its notes in place.
 *
 * @param tier      {@code c1} or {@code c2} (as the header says)
 * @param compileId HotSpot's compile id
 * @param method    {@code pkg.Class::method}, followed by {@code @ bci} for an on-stack-replacement compilation
 * @param start     the address of the first byte
 * @param code      the bytes, contiguous from {@code start} (a gap, which HotSpot does not print, is filled with zero bytes)
 * @param notes     HotSpot's notes by the address they precede, in the order printed
 */
public record CompiledMethodDump(String tier, int compileId, String method, long start, byte[] code,
                                 Map<Long, List<String>> notes) {

    /** The header; an on-stack-replacement compilation's name ends with {@code @ bci}, kept in {@link #method}. */
    private static final Pattern HEADER = Pattern.compile(
            "^Compiled method \\((\\w+)\\)\\s+\\d+\\s+(\\d+)\\s+.*?\\s(\\S+::\\S+(?: @ \\d+)?) \\(\\d+ bytes\\)");
    /** A line that starts with an address: bytes, or ({@code ;} first) a note for that address. */
    private static final Pattern ADDRESSED = Pattern.compile("^\\s*0x([0-9a-fA-F]+):\\s*(.*)$");
    private static final Pattern HEX_GROUPS = Pattern.compile("[0-9a-fA-F|\\s]+");
    /** A gap HotSpot left between two printed lines that this reader fills rather than refuses. */
    private static final int LARGEST_GAP = 1 << 16;

    /** Copies the map so that a dump cannot change once made. */
    public CompiledMethodDump {
        code = code.clone();
        Map<Long, List<String>> copy = new TreeMap<>();
        notes.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        notes = Collections.unmodifiableMap(copy);
    }

    @Override
    public byte[] code() {
        return code.clone();
    }

    /** @return the address just past the last byte */
    public long end() {
        return start + code.length;
    }

    /**
     * Every compiled method in a log, in the order printed. Lines outside a method's
     * {@code [MachCode]} section are ignored, so the log may hold anything else the JVM and the
     * program printed.
     *
     * @param lines the log's lines
     * @return the methods, possibly none
     * @throws IllegalArgumentException naming the line, if a compiled method's header has a shape
     *                                  this reader does not know, a {@code [MachCode]} section comes
     *                                  before any header, holds an addressed line that is neither
     *                                  bytes nor a note, bytes out of order or an odd number of hex
     *                                  digits, or no bytes at all
     */
    public static List<CompiledMethodDump> parse(List<String> lines) {
        List<CompiledMethodDump> out = new ArrayList<>();
        String tier = null;
        int id = -1;
        String method = null;
        Builder code = null;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.startsWith("Compiled method (")) {
                Matcher h = HEADER.matcher(line);
                if (!h.find()) {
                    throw new IllegalArgumentException("line " + (n + 1) + ": a compiled method's header this reader does not know: " + line);
                }
                tier = h.group(1);
                id = Integer.parseInt(h.group(2));
                method = h.group(3);
                continue;
            }
            String trimmed = line.strip();
            if (trimmed.equals("[MachCode]")) {
                if (method == null) {
                    throw new IllegalArgumentException("line " + (n + 1) + ": [MachCode] before any 'Compiled method (…)' header");
                }
                code = new Builder();
                continue;
            }
            if (code == null) {
                continue;
            }
            if (trimmed.equals("[/MachCode]")) {
                if (code.bytes.size() == 0) {
                    throw new IllegalArgumentException("line " + (n + 1) + ": " + method + " (compile " + id
                            + ") has no machine code bytes: was the log printed with a disassembler plug-in (hsdis)? "
                            + "Then it is assembly already");
                }
                out.add(code.build(tier, id, method));
                code = null;
                continue;
            }
            Matcher a = ADDRESSED.matcher(line);
            if (a.matches()) {
                long address = Long.parseUnsignedLong(a.group(1), 16);
                String rest = a.group(2).strip();
                if (rest.startsWith(";")) {
                    code.note(address, rest.substring(1).strip());
                } else if (HEX_GROUPS.matcher(rest).matches()) {
                    code.bytes(address, rest, n + 1);
                } else {
                    throw new IllegalArgumentException("line " + (n + 1) + ": neither bytes nor a note at 0x" + Long.toHexString(address)
                            + ": '" + rest + "' (a log printed with hsdis holds assembly already)");
                }
            } else if (trimmed.startsWith(";") || trimmed.startsWith("#")) {
                code.pending(trimmed.substring(1).strip());
            } else if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
                code.pending(trimmed);
            }
        }
        return out;
    }

    /** One method's bytes and notes as the section is read. */
    private static final class Builder {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final Map<Long, List<String>> notes = new TreeMap<>();
        final List<String> pending = new ArrayList<>();
        long start = -1;
        long lastNoteAddress = -1;

        void bytes(long address, String hex, int lineNumber) {
            if (start < 0) {
                start = address;
            }
            long expected = start + bytes.size();
            if (address < expected || address - expected > LARGEST_GAP) {
                throw new IllegalArgumentException("line " + lineNumber + ": bytes at 0x" + Long.toHexString(address)
                        + " where the method's next byte is at 0x" + Long.toHexString(expected));
            }
            for (long a = expected; a < address; a++) {
                bytes.write(0);
            }
            flushPending(address);
            String digits = hex.replace("|", "").replaceAll("\\s+", "");
            if (digits.length() % 2 != 0) {
                throw new IllegalArgumentException("line " + lineNumber + ": an odd number of hex digits: " + hex.strip());
            }
            for (int i = 0; i < digits.length(); i += 2) {
                bytes.write(Integer.parseInt(digits, i, i + 2, 16));
            }
        }

        void note(long address, String text) {
            flushPending(address);
            if (!text.isEmpty()) {
                notes.computeIfAbsent(address, k -> new ArrayList<>()).add(text);
            }
            lastNoteAddress = address;
        }

        /** A note without an address: a continuation of the last addressed note, or for the next bytes. */
        void pending(String text) {
            if (text.isEmpty()) {
                return;
            }
            if (lastNoteAddress >= 0 && pending.isEmpty()) {
                notes.computeIfAbsent(lastNoteAddress, k -> new ArrayList<>()).add(text);
            } else {
                pending.add(text);
            }
        }

        private void flushPending(long address) {
            if (!pending.isEmpty()) {
                notes.computeIfAbsent(address, k -> new ArrayList<>()).addAll(pending);
                pending.clear();
            }
            lastNoteAddress = -1;
        }

        CompiledMethodDump build(String tier, int id, String method) {
            return new CompiledMethodDump(tier, id, method, start, bytes.toByteArray(), notes);
        }
    }
}
