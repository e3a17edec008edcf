package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Swept values written in several units: a paper-figures trial's [40GB/s, 80000MB/s, 160GB/s, 0.32TB/s] were drawn at
 * x = 40, 80000, 160, 0.32 on a "bandwidth (GB/s)" axis, and normalise_to 80GB/s found no run.
 */
class NumbersTest {
    @Test
    void aValueIsDrawnInTheUnitOfTheFirst() {
        assertEquals(80, Numbers.inUnitOf("80000MB/s", "40GB/s"), 1e-9);
        assertEquals(320, Numbers.inUnitOf("0.32TB/s", "40GB/s"), 1e-9);
        assertEquals(12.5, Numbers.inUnitOf("100Gb/s", "40GB/s"), 1e-9, "bits are eighths of bytes");
        assertEquals(2048, Numbers.inUnitOf("2MB", "512KB"), 1e-9, "sizes are binary");
        assertEquals(1500, Numbers.inUnitOf("1.5GHz", "1000MHz"), 1e-9);
        assertEquals(7, Numbers.inUnitOf("7", "40GB/s"), 0, "no unit: as written");
        assertEquals(3, Numbers.inUnitOf("3us", "40GB/s"), 0, "another kind of unit: as written");
    }

    @Test
    void theSameQuantityInAnotherSpellingIsMatched() {
        assertTrue(Numbers.sameQuantity("80GB/s", "80000MB/s"));
        assertFalse(Numbers.sameQuantity("80GB/s", "80MB/s"));
        assertFalse(Numbers.sameQuantity("80GB/s", "80"));
        assertEquals("80000MB/s", Columns.match(List.of("40GB/s", "80000MB/s", "160GB/s"), "80GB/s"));
    }
}
