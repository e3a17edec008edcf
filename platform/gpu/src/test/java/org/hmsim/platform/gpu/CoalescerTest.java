package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.gpu.sm.Coalescer;
import org.junit.jupiter.api.Test;

class CoalescerTest {
    private final Coalescer c = new Coalescer(128);
    private final WarpInstruction in = new WarpInstruction();

    @Test
    void consecutiveFloatsMakeOneFullLine() {
        TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x10000, 4, 4, false);
        assertEquals(1, c.coalesce(in));
        assertEquals(0x10000, c.lines[0]);
        assertEquals(0b1111, c.sectors[0]);
    }

    @Test
    void lineStrideMakesThirtyTwoSingleSectorRequests() {
        TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x10000, 128, 4, false);
        assertEquals(32, c.coalesce(in));
        for (int i = 0; i < 32; i++) {
            assertEquals(0x10000 + 128L * i, c.lines[i]);
            assertEquals(1, c.sectors[i]);
        }
    }

    @Test
    void doublesSpanTwoLinesAndInactiveThreadsAreIgnored() {
        TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x20000, 8, 8, false);
        assertEquals(2, c.coalesce(in));
        in.activeMask = 0x0000FFFF; // only the first 16 threads: 128 B
        assertEquals(1, c.coalesce(in));
        in.activeMask = 0x1; // one thread, one sector
        assertEquals(1, c.coalesce(in));
        assertEquals(1, c.sectors[0]);
    }

    @Test
    void unalignedAccessCrossingALineTouchesBoth() {
        in.memory(WarpInstruction.Kind.LOAD, 8, 0x1, false);
        in.addresses[0] = 0x107C; // bytes 0x107C..0x1083
        assertEquals(2, c.coalesce(in));
        assertEquals(0x1000, c.lines[0]);
        assertEquals(0b1000, c.sectors[0]);
        assertEquals(0x1080, c.lines[1]);
        assertEquals(0b0001, c.sectors[1]);
    }

    @Test
    void sameLineFromScatteredThreadsMergesOutOfOrder() {
        in.memory(WarpInstruction.Kind.LOAD, 4, -1, false);
        for (int t = 0; t < 32; t++) in.addresses[t] = (t % 2 == 0) ? 0x3000 + 4 * t : 0x5000 + 32 * (t % 4);
        assertEquals(2, c.coalesce(in));
        assertEquals(0x3000, c.lines[0]);
        assertEquals(0x5000, c.lines[1]);
        assertEquals(0b1111, c.sectors[0]);
        assertEquals(0b1010, c.sectors[1]);
    }

    /** Pages per warp instruction (seed 002 Fig 17): one for a coalesced load, one per lane for a row-per-thread walk, exact out of order. */
    @Test
    void pagesPerInstructionCountDistinctPages() {
        TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x10000, 4, 4, false);
        c.coalesce(in);
        assertEquals(1, c.pages(12));
        TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x10000, 4096, 4, false); // a 4 KB row per thread
        c.coalesce(in);
        assertEquals(32, c.pages(12));
        assertEquals(2, c.pages(16), "16 rows per 64 KB page");
        in.memory(WarpInstruction.Kind.LOAD, 4, -1, false);
        for (int t = 0; t < 32; t++) in.addresses[t] = 0x100000L + 4096L * ((t * 7) % 5) + 128 * (t % 3); // a gather: 5 pages, lines out of order
        c.coalesce(in);
        assertEquals(5, c.pages(12));
        assertEquals(1, c.pages(16));
    }
}
