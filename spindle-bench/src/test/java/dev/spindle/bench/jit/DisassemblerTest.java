package dev.spindle.bench.jit;

import dev.spindle.bench.SpindleCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Bytes to assembly with HotSpot's notes in place, and the {@code machcode} command around it. */
class DisassemblerTest {

    /** objdump's output for the first bytes of {@link MachCodeLogs#C2_WALK}, header included. */
    private static final String OBJDUMP = """

            /tmp/x.bin:     file format binary


            Disassembly of section .data:

            0000000000001000 <.data>:
                1000:\t55                   \tpush   rbp
                1001:\t48 83 ec 10          \tsub    rsp,0x10
                1005:\t48 ff 87 b8 00 00 00 \tinc    QWORD PTR [rdi+0xb8]
                100c:\te8 ef ef ff ff       \tcall   0x0
            """;

    private static boolean objdumpRuns() {
        try {
            Process p = new ProcessBuilder("objdump", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0 && Disassembler.machine(System.getProperty("os.arch")).startsWith("i386");
        } catch (IOException | IllegalArgumentException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void notesGoRightBeforeTheirInstructionAndObjdumpsHeaderIsDropped() {
        String merged = Disassembler.merge(OBJDUMP, Map.of(0x1000L, List.of("[Verified Entry Point]"),
                0x100cL, List.of("{static_call}")));
        assertEquals("""
                        ;; [Verified Entry Point]
                    1000:\t55                   \tpush   rbp
                    1001:\t48 83 ec 10          \tsub    rsp,0x10
                    1005:\t48 ff 87 b8 00 00 00 \tinc    QWORD PTR [rdi+0xb8]
                        ;; {static_call}
                    100c:\te8 ef ef ff ff       \tcall   0x0
                """, merged);
    }

    @Test
    void aNoteInsideAnInstructionOrPastTheEndSaysItsAddress() {
        String merged = Disassembler.merge(OBJDUMP, Map.of(0x1003L, List.of("mid"), 0x2000L, List.of("after")));
        assertTrue(merged.contains("        ;; (at 0x1003) mid\n    1005:"), merged);
        assertTrue(merged.endsWith("        ;; (at 0x2000) after\n"), merged);
    }

    @Test
    void architecturesMapToObjdumpMachinesAndOthersAreRefusedByName() {
        assertEquals("i386:x86-64", Disassembler.machine("amd64"));
        assertEquals("i386:x86-64", Disassembler.machine("x86_64"));
        assertEquals("aarch64", Disassembler.machine("aarch64"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Disassembler.machine("riscv64"));
        assertTrue(e.getMessage().startsWith("no objdump machine known for architecture 'riscv64'"), e.getMessage());
    }

    @Test
    void aMissingObjdumpSaysWhatToInstall() {
        CompiledMethodDump d = CompiledMethodDump.parse(MachCodeLogs.C2_WALK).get(0);
        IOException e = assertThrows(IOException.class,
                () -> new Disassembler("/nonexistent/objdump-for-a-test").listing(d, "i386:x86-64"));
        assertTrue(e.getMessage().contains("install GNU binutils"), e.getMessage());
    }

    @Test
    void objdumpDisassemblesTheMethodAtItsOwnAddresses() throws IOException {
        assumeTrue(objdumpRuns(), "GNU objdump for x86-64 on PATH");
        String listing = new Disassembler("objdump").listing(CompiledMethodDump.parse(MachCodeLogs.C2_WALK).get(0), "i386:x86-64");
        assertTrue(listing.contains("1005:\t48 ff 87 b8 00 00 00 \tinc    QWORD PTR [rdi+0xb8]"), listing);
        assertTrue(listing.contains(";; {static_call}\n    100c:\te8 ef ef ff ff"), listing);
        assertTrue(listing.contains(";; - pkg.Probe::walk@5 (line 7)\n    1011:\t48 83 c4 10"), listing);
        assertTrue(listing.contains("1016:\tc3"), listing);
    }

    private static String run(int expectedExit, String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertEquals(expectedExit, SpindleCli.execute(args), "exit code");
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theCommandListsTheCompilationsInALog(@TempDir Path dir) throws IOException {
        Path log = Files.write(dir.resolve("jvm.log"), MachCodeLogs.c1ThenC2());
        assertEquals("c1  compile   271       2 bytes  pkg.Probe::walk\nc2  compile   287      24 bytes  pkg.Probe::walk\n",
                run(0, "machcode", log.toString(), "--list").replace(System.lineSeparator(), "\n"));
    }

    @Test
    void theCommandPrintsTheLastMatchingCompilation(@TempDir Path dir) throws IOException {
        assumeTrue(objdumpRuns(), "GNU objdump for x86-64 on PATH");
        Path log = Files.write(dir.resolve("jvm.log"), MachCodeLogs.c1ThenC2());
        String out = run(0, "machcode", log.toString(), "--method", "Probe::walk", "--arch", "amd64");
        assertTrue(out.startsWith("== c2 compile 287: pkg.Probe::walk, 24 bytes at 0x1000\n"), out);
        String c1 = run(0, "machcode", log.toString(), "--tier", "c1", "--arch", "amd64");
        assertTrue(c1.startsWith("== c1 compile 271: pkg.Probe::walk, 2 bytes at 0x2000\n") && c1.contains("push   rbp"), c1);
    }

    @Test
    void theCommandRefusesAMethodNotInTheLogNamingWhatIsThere(@TempDir Path dir) throws IOException {
        Path log = Files.write(dir.resolve("jvm.log"), MachCodeLogs.c1ThenC2());
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertNotEquals(0, SpindleCli.execute("machcode", log.toString(), "--method", "Other::m"));
            assertNotEquals(0, SpindleCli.execute("machcode", log.toString(), "--tier", "c3"));
        } finally {
            System.setErr(old);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("has no c2 compilation of a method containing 'Other::m'; it has: c1 pkg.Probe::walk, c2 pkg.Probe::walk"), text);
        assertTrue(text.contains("--tier must be c1 or c2, not 'c3'"), text);
    }
}
