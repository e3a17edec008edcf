package org.hmsim.platform.gpu.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.xbar.Crossbar;
import org.junit.jupiter.api.Test;

/**
 * An L2 slice chosen by a hash of the address must index its sets with the other bits: every line it holds
 * has the same hash of the slice-select bits, and indexing with them left a slice of a 1 MB L2 using 16 of
 * its 128 sets for any footprint below 256 KB per pool (an eighth of its capacity).
 */
class L2SetIndexTest {
    private static final int SLICES = 8;
    private static final CacheConfig SLICE = new CacheConfig(128 * 1024, 8, 128, 120, 128, 8, 128, 32); // 128 sets

    @Test
    void aSliceUsesEverySetForASmallFootprint() {
        SectorTags tags = new SectorTags("l2.0", SLICE, true, SLICES);
        assertEquals(128, setsUsedBySlice0(tags, 256 * 1024));
    }

    @Test
    void withoutLeavingTheSliceBitsOutOnlyOneSetInEightIsUsed() {
        SectorTags tags = new SectorTags("l2.0", SLICE, true, 0); // the defect this guards against
        assertEquals(16, setsUsedBySlice0(tags, 256 * 1024));
    }

    @Test
    void aSlicesLinesSpreadEvenlyOverItsSets() {
        SectorTags tags = new SectorTags("l2.0", SLICE, true, SLICES);
        int[] perSet = new int[128];
        for (long a = 0; a < (64L << 20); a += 128)
            if (Crossbar.sliceOf(a, SLICES) == 0) perSet[tags.setOf(tags.lineOf(a))]++;
        // 64 MB / 128 B / 8 slices / 128 sets = 512 lines in every set
        for (int s = 0; s < 128; s++) assertEquals(512, perSet[s], "set " + s);
    }

    /**
     * A slice count that is not a power of two (a GTX 480 has 6 partitions): the block number keeps its residue
     * mod the count, so indexing with it left each of 3 slices of 192 sets a third of them (hit rate 0.25 on a
     * footprint of two thirds of the L2, found by a review).
     */
    @Test
    void withAnySliceCountEverySliceUsesEverySetEvenly() {
        for (int slices : new int[] {3, 6, 12}) {
            CacheConfig slice = new CacheConfig(192 * 1024 * 4 / slices, 8, 128, 120, 128, 8, 128, 32);
            SectorTags tags = new SectorTags("l2.0", slice, true, slices);
            int[] perSet = new int[tags.sets];
            long lines = 0;
            for (long a = 0; a < (48L << 20); a += 128)
                if (Crossbar.sliceOf(a, slices) == 1) {
                    perSet[tags.setOf(tags.lineOf(a))]++;
                    lines++;
                }
            double mean = (double) lines / tags.sets;
            for (int s = 0; s < tags.sets; s++)
                assertEquals(mean, perSet[s], mean * 0.05, slices + " slices, set " + s + " of " + tags.sets);
            assertEquals(tags.sets, setsUsedBySlice(tags, slices, 1, 192 * 1024 * 4 / 2), slices + " slices: a footprint of half the L2");
        }
    }

    /**
     * With a plain interleave (seed 003's 256 B bank chunks) a bank indexes its sets with the line number divided by
     * the bank count, as Multi2Sim's mod_find_block does (set = block / modules mod sets): the bank bits are not
     * stripped, so with 2 banks of 128 sets a bank reaches 64 sets (two consecutive lines per set), with 8 banks 32
     * (a chunk's four lines in one set), not 16 as the whole line number gave (64 B lines, 256 B chunks).
     */
    @Test
    void aPlainlyInterleavedBankDividesTheLineNumberByTheBankCount() {
        for (int banks : new int[] {2, 8, 16}) {
            // frc-rx540's bank: 256 KB, 32 ways of 64 B lines (128 sets); 256 B chunks of four lines
            SectorTags tags = new SectorTags("l2.0", new CacheConfig(256 * 1024, 32, 64, 10, 96, 8, 64, 32), true, 0, banks);
            Set<Integer> used = new HashSet<>();
            for (long a = 0; a < (16L << 20); a += 64)
                if ((a / 256) % banks == 0) used.add(tags.setOf(tags.lineOf(a)));
            assertEquals(banks == 2 ? 64 : 32, used.size(), banks + " banks");
            assertEquals(tags.setOf(0), tags.setOf(64), banks + " banks: the chunk's first two lines share a set");
            if (banks > 2) assertEquals(tags.setOf(0), tags.setOf(192), banks + " banks: all four lines of the chunk");
        }
    }

    private static int setsUsedBySlice0(SectorTags tags, long footprint) { return setsUsedBySlice(tags, SLICES, 0, footprint); }

    private static int setsUsedBySlice(SectorTags tags, int slices, int slice, long footprint) {
        Set<Integer> sets = new HashSet<>();
        for (long a = 0; a < footprint; a += 128)
            if (Crossbar.sliceOf(a, slices) == slice) sets.add(tags.setOf(tags.lineOf(a)));
        return sets.size();
    }
}
