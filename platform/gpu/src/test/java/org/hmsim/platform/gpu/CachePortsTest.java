package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.gpu.sm.Sm;
import org.junit.jupiter.api.Test;

/**
 * An L1's {@code ports}: the line requests it takes per cycle (seed 003 Table 4.2 gives its caches two). A
 * gather of 32 lines that all hit is bound by that rate.
 */
class CachePortsTest {

    /** Every warp gathers the same 32 lines 16 times: after the first pass each instruction is 32 L1 hits. */
    private static long gathersOfHits(int l1Ports, Sm[] sm) {
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, b.sharedBytesPerSm(), b.issueWidth(), b.l1().withPorts(l1Ports), b.l2(), b.l2Slices(), b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 20_000);
        long t = rig.run(GpuMemoryTest.kernel(2, 256, 16, (cta, warp, i, in) ->
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x100000L, 128, 4, false)));
        sm[0] = rig.gpu.sms().get(0);
        return t;
    }

    @Test
    void twoL1PortsTakeAGatherOfHitsInHalfTheCycles() {
        Sm[] one = new Sm[1], two = new Sm[1];
        long t1 = gathersOfHits(1, one), t2 = gathersOfHits(2, two);
        assertEquals(one[0].lineRequests(), two[0].lineRequests(), "the same line requests");
        assertTrue(two[0].l1().hits() > 0.9 * two[0].lineRequests(), "hits: " + two[0].l1().hits());
        assertTrue(t2 < 0.65 * t1, "1 port " + t1 + " ps, 2 ports " + t2 + " ps");
    }

    @Test
    void aCacheTakesAtLeastOneRequestPerCycle() {
        CacheConfig c = TestSupport.l1(8);
        assertThrows(IllegalArgumentException.class, () -> c.withPorts(0));
    }
}
