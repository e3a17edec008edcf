package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.hmsim.api.os.AllocationHint;
import org.hmsim.bwaware.placement.GetAllocation;
import org.junit.jupiter.api.Test;

/** seed 000 §2.4 GetAllocation(size[], hotness[]) and its documented readings of §7.6. */
class GetAllocationTest {
    static final AllocationHint BO = AllocationHint.BO, CO = AllocationHint.CO, BW = AllocationHint.BW;

    @Test
    void everythingBwWhenTheFastPoolHoldsItsShare() {
        assertArrayEquals(new AllocationHint[] {BW, BW}, GetAllocation.hints(new long[] {100, 100}, new double[] {1, 2}, 200, 0.714, "total", "prefix"));
    }

    @Test
    void rankingAndFitRules() {
        long[] size = {400, 50, 10};
        double[] hot = {10, 5, 1};
        // total ranks the big one first; it does not fit in 100: prefix stops, greedy skips, spill gives it BO
        assertArrayEquals(new AllocationHint[] {CO, CO, CO}, GetAllocation.hints(size, hot, 100, 0.7, "total", "prefix"));
        assertArrayEquals(new AllocationHint[] {CO, BO, BO}, GetAllocation.hints(size, hot, 100, 0.7, "total", "greedy"));
        assertArrayEquals(new AllocationHint[] {BO, CO, CO}, GetAllocation.hints(size, hot, 100, 0.7, "total", "spill"));
        // density: 5/50 = 0.1 and 1/10 = 0.1 tie (allocation order), 10/400 last
        assertArrayEquals(new AllocationHint[] {CO, BO, BO}, GetAllocation.hints(size, hot, 100, 0.7, "density", "prefix"));
    }
}
