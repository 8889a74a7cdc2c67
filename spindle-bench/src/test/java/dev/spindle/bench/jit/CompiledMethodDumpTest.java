package dev.spindle.bench.jit;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** HotSpot's printed code, read back into bytes and notes at their addresses. */
class CompiledMethodDumpTest {

    @Test
    void aMethodsBytesAreReadContiguouslyFromItsFirstAddress() {
        List<CompiledMethodDump> dumps = CompiledMethodDump.parse(MachCodeLogs.C2_WALK);
        assertEquals(1, dumps.size());
        CompiledMethodDump d = dumps.get(0);
        assertEquals(List.of("c2", 287, "pkg.Probe::walk", 0x1000L, 0x1018L),
                List.of(d.tier(), d.compileId(), d.method(), d.start(), d.end()));
        assertEquals("554883ec1048ff87b8000000e8efefffff4883c4105dc3f4", HexFormat.of().formatHex(d.code()));
    }

    @Test
    void notesLandOnTheAddressTheyPrecede() {
        CompiledMethodDump d = CompiledMethodDump.parse(MachCodeLogs.C2_WALK).get(0);
        assertEquals(List.of(0x1000L, 0x100cL, 0x1011L, 0x1017L), new ArrayList<>(d.notes().keySet()));
        assertEquals(List.of("[Verified Entry Point]", "{method} {0x00007f076c402c78} 'walk' '(I)V' in 'pkg/Probe'",
                "parm0:    rsi       = int"), d.notes().get(0x1000L));
        assertEquals(List.of("{static_call}"), d.notes().get(0x100cL));
        assertEquals(List.of("ImmutableOopMap {}", "*invokestatic walk {reexecute=0 rethrow=0 return_oop=0}",
                "- pkg.Probe::walk@5 (line 7)"), d.notes().get(0x1011L), "continuation lines stay with their address");
        assertEquals(List.of("[Stub Code]"), d.notes().get(0x1017L));
    }

    @Test
    void everyMethodOfALogIsReadInOrderAndOtherLinesAreIgnored() {
        List<CompiledMethodDump> dumps = CompiledMethodDump.parse(MachCodeLogs.c1ThenC2());
        assertEquals(List.of("c1 271 2", "c2 287 24"),
                dumps.stream().map(d -> d.tier() + " " + d.compileId() + " " + d.code().length).toList());
        assertEquals(List.of(), CompiledMethodDump.parse(List.of("no compiled code here")));
    }

    @Test
    void aDumpCannotBeChangedThroughWhatItReturns() {
        CompiledMethodDump d = CompiledMethodDump.parse(MachCodeLogs.C2_WALK).get(0);
        d.code()[0] = 0;
        assertEquals(0x55, d.code()[0] & 0xff);
        assertThrows(UnsupportedOperationException.class, () -> d.notes().clear());
    }

    @Test
    void bytesOutOfOrderAreRefusedNamingTheLine() {
        List<String> lines = new ArrayList<>(MachCodeLogs.C2_WALK);
        lines.set(20, "  0x0000000000001001: 4883 c410 | 5dc3 ");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CompiledMethodDump.parse(lines));
        assertTrue(e.getMessage().startsWith("line 21: bytes at 0x1001 where the method's next byte is at 0x1011"), e.getMessage());
    }

    @Test
    void anOddNumberOfHexDigitsIsRefused() {
        List<String> lines = new ArrayList<>(MachCodeLogs.C2_WALK);
        lines.set(15, "  0x000000000000100c: e8ef efff | f");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CompiledMethodDump.parse(lines));
        assertTrue(e.getMessage().startsWith("line 16: an odd number of hex digits"), e.getMessage());
    }

    @Test
    void aLogPrintedWithHsdisSaysItIsAssemblyAlready() {
        List<String> lines = List.of("Compiled method (c2) 636  287   !   4       pkg.Probe::walk (119 bytes)", "[MachCode]",
                "  0x0000000000001000:   push   %rbp", "[/MachCode]");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CompiledMethodDump.parse(lines));
        assertEquals("line 3: neither bytes nor a note at 0x1000: 'push   %rbp' (a log printed with hsdis holds assembly already)",
                e.getMessage());
    }

    @Test
    void aSectionWithNoBytesIsRefusedNamingTheMethod() {
        List<String> lines = List.of("Compiled method (c2) 636  287   !   4       pkg.Probe::walk (119 bytes)", "[MachCode]",
                "[Verified Entry Point]", "[/MachCode]");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CompiledMethodDump.parse(lines));
        assertTrue(e.getMessage().startsWith("line 4: pkg.Probe::walk (compile 287) has no machine code bytes"), e.getMessage());
    }

    @Test
    void anOnStackReplacementCompilationKeepsItsBytecodeIndexInItsName() {
        List<String> lines = List.of("Compiled method (c2) 1234 300 %     4       pkg.Probe::loop @ 12 (40 bytes)", "[MachCode]",
                "  0x0000000000003000: c3", "[/MachCode]");
        assertEquals("pkg.Probe::loop @ 12", CompiledMethodDump.parse(lines).get(0).method());
    }

    @Test
    void aHeaderOfAnUnknownShapeIsRefusedRatherThanLeftToTheMethodBefore() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompiledMethodDump.parse(List.of("Compiled method (c2) something else")));
        assertEquals("line 1: a compiled method's header this reader does not know: Compiled method (c2) something else", e.getMessage());
    }

    @Test
    void machCodeWithoutAHeaderIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompiledMethodDump.parse(List.of("x", "[MachCode]")));
        assertEquals("line 2: [MachCode] before any 'Compiled method (…)' header", e.getMessage());
    }
}
