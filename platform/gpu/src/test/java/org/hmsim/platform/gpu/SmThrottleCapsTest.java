package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.gpu.sm.Sm;
import org.junit.jupiter.api.Test;

/**
 * The throttling slot's caps on an SM (CoreView.setCtaLimit / setWarpLimit): a thread-block cap holds the SM's resident
 * blocks at it and 0 takes the SM out of dispatch; raising it dispatches at once; a warp cap lets only the oldest warps
 * issue, so warps with private working sets that together overflow the L1 hit in it (CCWS's static warp limiting), and
 * a block larger than the cap still passes its barriers.
 */
class SmThrottleCapsTest {
    private static final long FABRIC_PS = 200_000;

    @Test
    void aThreadBlockCapHoldsTheResidentBlocksAtIt() {
        TestSupport.RoundRobinCta cta = new TestSupport.RoundRobinCta();
        TestSupport.Rig capped = rig(2, cta);
        for (Sm sm : capped.gpu.sms()) sm.setCtaLimit(1);
        long tCapped = capped.run(loads(16, 64, 8));
        assertEquals(1, cta.maxResidentSeen, "no SM held more than its cap of one block");

        TestSupport.RoundRobinCta free = new TestSupport.RoundRobinCta();
        long tFree = rig(2, free).run(loads(16, 64, 8));
        assertTrue(free.maxResidentSeen > 1, "uncapped SMs hold several blocks (" + free.maxResidentSeen + ")");
        assertTrue(tCapped > 2 * tFree, "one block per SM cannot hide the memory latency: " + tCapped + " against " + tFree + " ps");
    }

    @Test
    void anSmCappedAtZeroTakesNoBlockAndTheOthersRunTheGrid() {
        TestSupport.Rig rig = rig(2, new TestSupport.RoundRobinCta());
        rig.gpu.sms().get(1).setCtaLimit(0);
        rig.run(loads(8, 64, 4));
        assertEquals(0, rig.gpu.sms().get(1).issued(), "SM 1 took no block");
        assertEquals(8L * 2 * 4, rig.gpu.sms().get(0).memInstructions(), "SM 0 ran every block");
    }

    @Test
    void raisingTheCapDispatchesTheWaitingBlocksAtOnce() {
        TestSupport.Rig rig = rig(2, new TestSupport.RoundRobinCta());
        for (Sm sm : rig.gpu.sms()) sm.setCtaLimit(0); // the grid waits: nothing may take a block
        long raiseAt = 5_000_000;
        rig.engine.schedule(raiseAt, (kind, payload) -> { for (Sm sm : rig.gpu.sms()) sm.setCtaLimit(8); }, 0, 0);
        long end = rig.run(loads(8, 64, 4));
        long alone = rig(2, new TestSupport.RoundRobinCta()).run(loads(8, 64, 4));
        long period = 1_000_000 / 1400; // the SMs start at their first clock edge after the raise
        assertTrue(end >= raiseAt + alone && end <= raiseAt + alone + period,
                "the grid starts at the raise and runs as it would from time 0: " + (end - raiseAt) + " against " + alone + " ps");
        assertThrows(IllegalArgumentException.class, () -> rig.gpu.sms().get(0).setCtaLimit(9), "above the hardware's 8");
        assertThrows(IllegalArgumentException.class, () -> rig.gpu.sms().get(0).setWarpLimit(0), "a warp cap of 0 would stop the SM for good");
    }

    /**
     * 32 warps each cycle over their own 8 lines: 256 lines against the L1's 128, so under LRU every access misses. With
     * 8 warps issuing at a time their 64 lines fit and all but the first pass hit.
     */
    @Test
    void aWarpCapKeepsTheIssuingWarpsWorkingSetsInTheL1() {
        TestSupport.Rig free = rig(1, new TestSupport.RoundRobinCta());
        free.run(privateReuse());
        TestSupport.Rig capped = rig(1, new TestSupport.RoundRobinCta());
        capped.gpu.sms().get(0).setWarpLimit(8);
        capped.run(privateReuse());
        Sm f = free.gpu.sms().get(0), c = capped.gpu.sms().get(0);
        assertEquals(f.lineRequests(), c.lineRequests(), "the same work");
        double hitFree = hitRate(f), hitCapped = hitRate(c);
        assertTrue(hitFree < 0.3, "all 32 warps' lines overflow the L1: hit rate " + hitFree);
        assertTrue(hitCapped > 0.7, "8 warps' lines fit: hit rate " + hitCapped + " (uncapped " + hitFree + ")");
        assertTrue(f.l1().misses() > 3 * c.l1().misses(), "L1 misses: " + f.l1().misses() + " against " + c.l1().misses());
    }

    @Test
    void aBlockLargerThanTheWarpCapStillPassesItsBarriers() {
        TestSupport.Rig rig = rig(1, new TestSupport.RoundRobinCta());
        rig.gpu.sms().get(0).setWarpLimit(1);
        int ctas = 2, warps = 8, phases = 3;
        long t = rig.run(TestSupport.kernel("barriers", ctas, warps * 32, (cta, warp) -> new WarpProgram() {
            int step;

            @Override
            public boolean next(WarpInstruction in) {
                if (step == 2 * phases) return false;
                if (step++ % 2 == 0) TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x100000L + ((long) cta * warps + warp) * 4096, 4, 4, true);
                else in.barrier();
                return true;
            }
        }));
        assertTrue(t > 0);
        assertEquals((long) ctas * warps * phases * 2, rig.gpu.sms().get(0).issued(), "every warp ran every phase, one at a time");
    }

    /**
     * Compute only, nothing in flight: the capped warp's barrier lets the next warp in, and nothing but the SM's own next
     * cycle can start it (found by a review: the SM slept for good, "in flight 0"; sdk-reduction and sgemm deadlocked at
     * warps_per_sm 1).
     */
    @Test
    void aBarrierWithNothingInFlightLetsTheNextWarpIssue() {
        TestSupport.Rig rig = rig(1, new TestSupport.RoundRobinCta());
        rig.gpu.sms().get(0).setWarpLimit(1);
        rig.run(TestSupport.kernel("compute-barrier", 2, 4 * 32, (cta, warp) -> new WarpProgram() {
            int step;

            @Override
            public boolean next(WarpInstruction in) {
                switch (step++) {
                    case 0, 2 -> in.compute(4, false);
                    case 1 -> in.barrier();
                    default -> { return false; }
                }
                return true;
            }
        }));
        assertEquals(2L * 4 * 3, rig.gpu.sms().get(0).issued(), "every warp of both blocks ran, one at a time");
    }

    private static double hitRate(Sm sm) { return (double) sm.l1().hits() / (sm.l1().hits() + sm.l1().misses()); }

    private static TestSupport.Rig rig(int sms, TestSupport.RoundRobinCta cta) {
        GpuConfig b = TestSupport.config(sms, 32);
        return new TestSupport.Rig(b, TestSupport.policies(new TestSupport.Gto(), (l, r) -> true, cta), FABRIC_PS);
    }

    /** {@code ctas} blocks of {@code threads} threads, each warp {@code n} coalesced loads of its own lines, each waited for. */
    private static org.hmsim.api.workload.Kernel loads(int ctas, int threads, int n) {
        return GpuMemoryTest.kernel(ctas, threads, n, (cta, warp, i, in) ->
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x100000L + (((long) cta * 32 + warp) * n + i) * 128, 4, 4, true));
    }

    /** One block of 32 warps; warp w loads its 8 lines in turn, 16 times over, each load waited for. */
    private static org.hmsim.api.workload.Kernel privateReuse() {
        int lines = 8, passes = 16;
        return GpuMemoryTest.kernel(1, 1024, lines * passes, (cta, warp, i, in) ->
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x100000L + ((long) warp * lines + i % lines) * 128, 4, 4, true));
    }
}
