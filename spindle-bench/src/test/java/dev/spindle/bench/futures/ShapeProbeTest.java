package dev.spindle.bench.futures;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShapeProbeTest {
    private static final List<String> KNOWN = List.of("array", "atomic", "one-path");

    @Test
    void oneShapeOrSeveralSeparatedByCommas() {
        assertEquals(List.of("atomic"), ShapeProbe.shapes(new String[]{"atomic"}, KNOWN));
        assertEquals(List.of("one-path", "array"), ShapeProbe.shapes(new String[]{"one-path,array"}, KNOWN));
    }

    @Test
    void badNamesAreRefusedByName() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ShapeProbe.shapes(new String[]{"array,arrays"}, KNOWN));
        assertTrue(unknown.getMessage().contains("\"arrays\""), unknown.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> ShapeProbe.shapes(new String[]{"array,"}, KNOWN));
        assertTrue(empty.getMessage().contains("no shape \"\""), empty.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> ShapeProbe.shapes(new String[]{"array,atomic,array"}, KNOWN));
        assertTrue(twice.getMessage().contains("named twice"), twice.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> ShapeProbe.shapes(new String[0], KNOWN));
        assertTrue(none.getMessage().contains(KNOWN.toString()), none.getMessage());
    }
}
