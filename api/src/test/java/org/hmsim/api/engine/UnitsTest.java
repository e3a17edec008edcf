package org.hmsim.api.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        // a whole number of bytes is exact: the largest long is not "too large (at most itself)"
        assertEquals(Long.MAX_VALUE, Units.bytes("9223372036854775807"));
        assertEquals(Long.MAX_VALUE, Units.bytes("9223372036854775807B"));
        assertEquals("'9223372036854775808' is too large (at most 9223372036854775807 bytes)",
                assertThrows(IllegalArgumentException.class, () -> Units.bytes("9223372036854775808")).getMessage());
    }

    @Test
    void ordinaryQuantities() {
        assertEquals(16384, Units.bytes("16KB"));
        // 2^63 bytes is 8388608 TB: one TB less still fits
        assertEquals(8388607L << 40, Units.bytes("8388607TB"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("8388608TB"));
        assertEquals(20_000_000L, Units.picoseconds("20us"));
        // microseconds as written with the micro sign or the Greek mu (a trial's 10\u00b5s was "not a time")
        assertEquals(10_000_000L, Units.picoseconds("10\u00b5s"));
        assertEquals(10_000_000L, Units.picoseconds("10\u03bcs"));
        assertEquals(200e9, Units.bytesPerSecond("200GB/s"));
        assertEquals(1400, Units.megahertz("1.4GHz"), 1e-9);
    }

    /** b is a bit and B a byte: 80Gb/s was read as 80 GB/s, eight times the link a researcher meant (an audit). */
    @Test
    void aLowercaseBIsABit() {
        assertEquals(10e9, Units.bytesPerSecond("80Gb/s"));
        assertEquals(80e9, Units.bytesPerSecond("80GB/s"));
        assertEquals(125e3, Units.bytesPerSecond("1Mb/s"));
        assertEquals(1e3, Units.bytesPerSecond("8Kb/s"));
        // all lower case was read as bytes up to 1.0.1: refused, not reread as bits (found by a review)
        assertEquals("'320gb/s' is ambiguous: write 320GB/s for bytes or 320Gb/s for bits",
                assertThrows(IllegalArgumentException.class, () -> Units.bytesPerSecond("320gb/s")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Units.bytesPerSecond("8kb/s"));
        assertEquals(2e3, Units.bytesPerSecond("2kB/s"));
        assertEquals(1, Units.bytesPerSecond("8b/s"));
        assertEquals("'16Kb' is in bits (b); a size is in bytes (B): write 16KB",
                assertThrows(IllegalArgumentException.class, () -> Units.bytes("16Kb")).getMessage());
        assertEquals("'4Mib' is in bits (b); a size is in bytes (B): write 4MiB",
                assertThrows(IllegalArgumentException.class, () -> Units.bytes("4Mib")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("64b"));
        assertEquals(4L << 20, Units.bytes("4MiB"));
        assertEquals(4L << 20, Units.bytes("4MIB"));
        assertEquals(16384, Units.bytes("16kB"));
        assertEquals(16384, Units.bytes("16K"));
        assertEquals(2048, Units.bytes("2048"));
    }

    /** A binary prefix on a bandwidth is refused, not read as the decimal one; units a size or a rate lacks too. */
    @Test
    void unitsOfTheOtherKindAreRefused() {
        for (String bad : new String[] {"1GiB/s", "1Gib/s", "1G/s", "1GB", "10Gbps"})
            assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.bytesPerSecond(bad)).getMessage()
                    .startsWith("unknown bandwidth unit"), bad);
        for (String bad : new String[] {"1KB/s", "1Ki", "1iB", "1i"})
            assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.bytes(bad)).getMessage()
                    .startsWith("unknown size unit"), bad);
    }
}
