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
        SectorTags tags = new SectorTags("l2.0", SLICE, true, Integer.numberOfTrailingZeros(SLICES));
        assertEquals(128, setsUsedBySlice0(tags, 256 * 1024));
    }

    @Test
    void withoutLeavingTheSliceBitsOutOnlyOneSetInEightIsUsed() {
        SectorTags tags = new SectorTags("l2.0", SLICE, true, 0); // the defect this guards against
        assertEquals(16, setsUsedBySlice0(tags, 256 * 1024));
    }

    @Test
    void aSlicesLinesSpreadEvenlyOverItsSets() {
        SectorTags tags = new SectorTags("l2.0", SLICE, true, 3);
        int[] perSet = new int[128];
        for (long a = 0; a < (64L << 20); a += 128)
            if (Crossbar.sliceOf(a, SLICES) == 0) perSet[tags.setOf(tags.lineOf(a))]++;
        // 64 MB / 128 B / 8 slices / 128 sets = 512 lines in every set
        for (int s = 0; s < 128; s++) assertEquals(512, perSet[s], "set " + s);
    }

    private static int setsUsedBySlice0(SectorTags tags, long footprint) {
        Set<Integer> sets = new HashSet<>();
        for (long a = 0; a < footprint; a += 128)
            if (Crossbar.sliceOf(a, SLICES) == 0) sets.add(tags.setOf(tags.lineOf(a)));
        return sets.size();
    }
}
