package org.hmsim.api.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class UnitsTest {
    @Test
    void quantitiesThatDoNotFitAreErrorsNotSaturated() {
        assertEquals("'1e30TB' is too large (at most 9223372036854775807 bytes)",
                assertThrows(IllegalArgumentException.class, () -> Units.bytes("1e30TB")).getMessage());
        assertEquals("'1e7s' is too large (at most 9223372036854775807 ps)",
                assertThrows(IllegalArgumentException.class, () -> Units.picoseconds("1e7s")).getMessage());
        assertEquals("'1e400GB/s' is too large",
                assertThrows(IllegalArgumentException.class, () -> Units.bytesPerSecond("1e400GB/s")).getMessage());
        assertEquals("'1e400GHz' is too large",
                assertThrows(IllegalArgumentException.class, () -> Units.megahertz("1e400GHz")).getMessage());
    }

    @Test
    void ordinaryQuantities() {
        assertEquals(16384, Units.bytes("16KB"));
        // 2^63 bytes is 8388608 TB: one TB less still fits
        assertEquals(8388607L << 40, Units.bytes("8388607TB"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("8388608TB"));
        assertEquals(20_000_000L, Units.picoseconds("20us"));
        assertEquals(200e9, Units.bytesPerSecond("200GB/s"));
        assertEquals(1400, Units.megahertz("1.4GHz"), 1e-9);
    }
}
