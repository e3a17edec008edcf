package org.hmsim.platform.gpu;

import static org.hmsim.platform.gpu.GpuMemoryTest.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

/**
 * The FRC's victim after the swap (seed 003 §M7 step 4): the entry holds it while its L1 copies are invalidated and it
 * is written back. A request for it meanwhile waits until the entry is free, as a request for the conventional
 * path's locked victim waits for its release (§M6), instead of fetching the line again while the write-back is in
 * flight.
 */
class FrcVictimTest {
    private static final long A = 0x400000, SET_STRIDE = 16 * 128; // a 4 KB 2-way L2 of 128 B lines: 16 sets

    private static final L2MissPathPolicy FRC = new L2MissPathPolicy() {
        @Override public int fetchBuffersPerBank() { return 4; }

        @Override public int swapCycles() { return 3; }
    };

    /**
     * One warp: a store dirties line A, loads of B1 and B2 in A's set make the FRC swap A out (LRU), then loads of A
     * every 10 cycles, past the L1 (cacheability), ask for it while its write-back is in flight.
     */
    @Test
    void aRequestForTheVictimWaitsForItsWriteBack() {
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, TestSupport.l1(64), TestSupport.l2(4096, 2), 1, b.crossbar(), b.tlb());
        GpuPolicies policies = new GpuPolicies(new TestSupport.Gto(), new TestSupport.Lru(), (level, r) -> level != 1, FRC,
                new TestSupport.RoundRobinCta(), new CoherencePolicy() {});
        TestSupport.Rig rig = new TestSupport.Rig(cfg, policies, 200_000); // a write-back slower than the L2 look-up
        StatsRegistry stats = new StatsRegistry();
        rig.gpu.registerStats(stats);
        int loadsOfA = 100;
        rig.run(kernel(1, 32, 4 + 2 * loadsOfA, (cta, warp, i, in) -> {
            if (i == 0) TestSupport.strided(in, WarpInstruction.Kind.STORE, A, 4, 4, false);
            else if (i == 1) TestSupport.strided(in, WarpInstruction.Kind.LOAD, A + SET_STRIDE, 4, 4, true);
            else if (i == 2) TestSupport.strided(in, WarpInstruction.Kind.LOAD, A + 2 * SET_STRIDE, 4, 4, false);
            else if (i == 3) in.compute(500, false); // past B2's fetch and swap: A is LRU at the swap, then evicting
            else if (i % 2 == 0) in.compute(10, false);
            else TestSupport.strided(in, WarpInstruction.Kind.LOAD, A, 4, 4, false);
        }));
        Map<String, Double> s = stats.snapshot();
        assertTrue(s.get("gpu0.l2.slice0.frc_swaps") >= 2, "the FRC swapped: " + s);
        assertTrue(rig.fabric.writebacks >= 1, "A was written back");
        assertEquals(3, rig.fabric.reads, "B1, B2, and A again after its eviction (the full-line store fetched nothing)");
        assertEquals(0, rig.fabric.readsPassingWriteBacks, "a read of A left while A's write-back was in flight");
    }
}
