package dev.spindle.bench.jit;

import java.util.ArrayList;
import java.util.List;

/** Logs as HotSpot prints compiled code without hsdis, for the tests of this package. */
final class MachCodeLogs {
    private MachCodeLogs() {
    }

    /**
     * A C2 method of 24 bytes at 0x1000: push rbp; sub rsp,0x10; inc qword [rdi+0xb8]; call;
     * add rsp,0x10; pop rbp; ret — then one stub byte (hlt).
     */
    static final List<String> C2_WALK = List.of(
            "============================= C2-compiled nmethod ==============================",
            "----------------------------------- Assembly -----------------------------------",
            "",
            "Compiled method (c2) 636  287   !   4       pkg.Probe::walk (119 bytes)",
            " total in heap  [0x0000000000000f08,0x0000000000001100] = 504",
            "",
            "[Constant Pool (empty)]",
            "",
            "[MachCode]",
            "[Verified Entry Point]",
            "  # {method} {0x00007f076c402c78} 'walk' '(I)V' in 'pkg/Probe'",
            "  # parm0:    rsi       = int",
            "  0x0000000000001000: 5548 83ec | 1048 ff87 | b800 0000 ",
            "",
            "  0x000000000000100c: ;   {static_call}",
            "  0x000000000000100c: e8ef efff | ff",
            "",
            "  0x0000000000001011: ; ImmutableOopMap {}",
            "                      ;*invokestatic walk {reexecute=0 rethrow=0 return_oop=0}",
            "                      ; - pkg.Probe::walk@5 (line 7)",
            "  0x0000000000001011: 4883 c410 | 5dc3 ",
            "[Stub Code]",
            "  0x0000000000001017: f4",
            "[/MachCode]",
            "------------------------------------------------------------------------");

    /** The same method's C1 code before it (two bytes: push rbp; ret), with unrelated program output around. */
    static List<String> c1ThenC2() {
        List<String> lines = new ArrayList<>(List.of(
                "program output",
                "============================= C1-compiled nmethod ==============================",
                "Compiled method (c1) 584  271   !   2       pkg.Probe::walk (119 bytes)",
                "[MachCode]",
                "[Verified Entry Point]",
                "  0x0000000000002000: 55c3",
                "[/MachCode]",
                "more program output"));
        lines.addAll(C2_WALK);
        return lines;
    }
}
