package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

/** Each line request is looked up in its SM's L1 TLB once: {@code tlb.hits + tlb.misses = line_requests}. */
class SmTlbCountTest {
    /**
     * A TLB miss that finds the SM's miss buffer full waits at the head of the load/store queue and is looked up again
     * once the buffer has room. The first look-up must not count: a statistics review found every such wait counted as
     * one more L1 TLB miss (residency-baselines: 105 extra of an SM's 3,853 misses, tlb.hits + tlb.misses above
     * line_requests on 1,502 SMs of 172 runs).
     */
    @Test
    void aMissThatWaitsForRoomInTheMissBufferIsCountedOnce() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 50_000);
        StatsRegistry stats = new StatsRegistry();
        rig.gpu.registerStats(stats);
        // 8 warps x 4 loads, every lane on its own page: 1,024 line requests to 1,024 pages, far more than the buffer holds
        rig.run(GpuMemoryTest.kernel(1, 256, 4, (cta, warp, i, in) ->
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x1000000L + ((long) warp * 4 + i) * 32 * 4096, 4096, 4, false)));
        Sm sm = rig.gpu.sms().get(0);
        assertEquals(1024, sm.lineRequests());
        var s = stats.snapshot();
        assertTrue(s.get("gpu0.sm0.tlb_stall_cycles") > 0, "the miss buffer filled (the case under test)");
        assertEquals(1024.0, s.get("gpu0.sm0.tlb.hits") + s.get("gpu0.sm0.tlb.misses"), "one look-up per line request");
        assertEquals(1024.0, s.get("gpu0.sm0.tlb.misses"), "every page is new: every line request misses once");
    }
}
