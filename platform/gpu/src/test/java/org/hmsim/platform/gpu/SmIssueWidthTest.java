package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.gpu.sm.Sm;
import org.junit.jupiter.api.Test;

/**
 * Regression: with several issue pipelines, one cycle may issue several memory instructions, each adding
 * up to 2 x 32 line requests to the load/store queue. The queue's headroom was checked once per cycle,
 * before the first pipeline, so issue_width 4 on a scattered gather (apu-bfs on the sahc preset)
 * overflowed the 128-entry ring: requests were overwritten, their warps' loads never returned, and the
 * kernel never completed.
 */
class SmIssueWidthTest {

    @Test
    void fourPipelinesIssuingScatteredGathersLoseNoRequest() {
        GpuConfig b = TestSupport.config(1, 8); // few L1 MSHRs: the load/store queue backs up
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, b.sharedBytesPerSm(), 4, b.l1(), b.l2(), b.l2Slices(), b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 20_000);
        int ctas = 4, threads = 256, n = 6; // 32 warps, each 6 gathers of 32 distinct lines, not waiting
        long t = rig.run(GpuMemoryTest.kernel(ctas, threads, n, (cta, warp, i, in) -> {
            long base = 0x100000L + ((long) (cta * 8 + warp) * n + i) * 4096;
            // one line per thread: every instruction coalesces into 32 requests
            TestSupport.strided(in, WarpInstruction.Kind.LOAD, base, 128, 4, i == n - 1);
        }));
        Sm sm = rig.gpu.sms().get(0);
        long expected = (long) ctas * (threads / 32) * n * 32;
        assertEquals(expected, sm.lineRequests(), "line requests out of the coalescer");
        assertEquals(expected, sm.l1().misses() + sm.l1().hits(), "every line request reached the L1 (none overwritten in the queue)");
        assertEquals(0, rig.gpu.inFlight(), "every load answered; completed at " + t);
    }
}
