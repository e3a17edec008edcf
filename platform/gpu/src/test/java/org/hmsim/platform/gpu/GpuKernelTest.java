package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

class GpuKernelTest {

    /** Per warp: load a line, compute on it, store, barrier, repeated; CTA-private data. */
    static Kernel mixed(int ctas, int threads, int rounds, TestSupport.Rig[] rig, long[] maxResidentWarps) {
        return TestSupport.kernel("mixed", ctas, threads, (cta, warp) -> new WarpProgram() {
            int i;

            @Override
            public boolean next(WarpInstruction in) {
                if (rig != null) for (Sm sm : rig[0].gpu.sms()) {
                    maxResidentWarps[0] = Math.max(maxResidentWarps[0], sm.residentWarps());
                    maxResidentWarps[1] = Math.max(maxResidentWarps[1], sm.residentCtas());
                }
                if (i == rounds * 4) return false;
                long base = 0x1000000L + ((long) cta * 64 + warp) * 4096 + (i / 4) * 128L;
                switch (i++ % 4) {
                    case 0 -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, base, 4, 4, false);
                    case 1 -> in.compute(5, true);
                    case 2 -> TestSupport.strided(in, WarpInstruction.Kind.STORE, base + 0x800, 4, 4, false);
                    default -> in.barrier();
                }
                return true;
            }
        });
    }

    private long runWith(WarpSchedulerPolicy ws, StatsRegistry stats) {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(2, 64), TestSupport.policies(ws, (l, r) -> true, new TestSupport.RoundRobinCta()), 100_000);
        if (stats != null) rig.gpu.registerStats(stats);
        long t = rig.run(mixed(12, 128, 6, null, null));
        assertEquals(1, rig.completions);
        assertEquals(0, rig.gpu.inFlight());
        assertEquals(12L * 4 * 6 * 4, rig.gpu.sms().stream().mapToLong(Sm::issued).sum());
        return t;
    }

    @Test
    void kernelCompletesUnderGtoAndLrr() {
        StatsRegistry s = new StatsRegistry();
        long gto = runWith(new TestSupport.Gto(), s);
        long lrr = runWith(new TestSupport.Lrr(), null);
        assertTrue(gto > 0 && lrr > 0);
        assertEquals(12.0, s.value("gpu0.ctas_launched"));
        assertEquals(1.0, s.value("gpu0.kernels_completed"));
        assertEquals(1.0, s.value("gpu0.sm0.requests_per_mem_instruction"));
    }

    @Test
    void completionWaitsForOutstandingStores() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 1_000_000);
        // one store and exit: the warp leaves at once, the kernel ends only when the L2 acknowledged it
        long t = rig.run(GpuMemoryTest.kernel(1, 32, 1, (c, w, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.STORE, 0x9000, 4, 4, false)));
        long p = rig.gpu.clock().periodPs();
        // TLB miss (1 + 10 + 100) + L1 3 + header... at least the store's round trip through the L2
        assertTrue(t >= (1 + 10 + 100 + 3 + 120) * p, "completed at " + t);
        assertEquals(0, rig.gpu.inFlight());
    }

    @Test
    void residentCtaAndWarpLimitsAreRespected() {
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 3, 16, 48 * 1024, 2, b.l1(), b.l2(), 2, b.crossbar(), b.tlb());
        TestSupport.RoundRobinCta cta = new TestSupport.RoundRobinCta();
        TestSupport.Rig[] rig = {new TestSupport.Rig(cfg, TestSupport.policies(new TestSupport.Gto(), (l, r) -> true, cta), 100_000)};
        long[] maxWarps = {0, 0};
        // 2 warps per CTA: the CTA limit (3) binds before the warp limit (16)
        rig[0].run(mixed(10, 64, 3, rig, maxWarps));
        assertEquals(3, maxWarps[1]);
        assertEquals(6, maxWarps[0]);
        // 8 warps per CTA: the warp limit (16) binds at 2 CTAs
        TestSupport.RoundRobinCta cta2 = new TestSupport.RoundRobinCta();
        rig[0] = new TestSupport.Rig(cfg, TestSupport.policies(new TestSupport.Gto(), (l, r) -> true, cta2), 100_000);
        maxWarps[0] = maxWarps[1] = 0;
        rig[0].run(mixed(6, 256, 2, rig, maxWarps));
        assertEquals(2, maxWarps[1]);
        assertEquals(16, maxWarps[0]);
    }

    @Test
    void ctaThatNeverFitsIsRejected() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 100_000);
        assertThrows(IllegalArgumentException.class, () -> rig.gpu.launch(mixed(1, 32 * 64, 1, null, null), 0, () -> {}));
    }

    @Test
    void barrierHoldsWarpsUntilTheWholeCtaArrives() {
        TestSupport.Rig[] rig = {new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 100_000)};
        long[] afterBarrier = new long[2];
        Kernel k = TestSupport.kernel("bar", 1, 64, (cta, warp) -> new WarpProgram() {
            int i;

            @Override
            public boolean next(WarpInstruction in) {
                switch (i++) {
                    case 0 -> in.compute(warp == 0 ? 1000 : 1, false);
                    case 1 -> in.barrier();
                    case 2 -> in.compute(1, false);
                    default -> {
                        afterBarrier[warp] = rig[0].engine.now(); // fetched when the post-barrier compute issues
                        return false;
                    }
                }
                return true;
            }
        });
        rig[0].run(k);
        long p = rig[0].gpu.clock().periodPs();
        // warp 1 issues its barrier early but may pass only after warp 0's 1000-cycle compute
        assertTrue(afterBarrier[1] >= 1000 * p, "warp 1 passed the barrier at " + afterBarrier[1]);
    }

    @Test
    void shootdownStallsIssueAndDropsTranslations() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 100_000);
        long t0 = rig.run(GpuMemoryTest.kernel(1, 32, 4, (c, w, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0xA000, 4, 4, true)));
        long walks = rig.translator.translations;
        rig.gpu.invalidateTranslation(0xA000 / 4096);
        long p = rig.gpu.clock().periodPs();
        long start = rig.engine.now();
        rig.gpu.stall(500 * p);
        long t1 = rig.run(GpuMemoryTest.kernel(1, 32, 1, (c, w, i, in) -> in.compute(1, false)));
        assertTrue(t1 - start >= 500 * p, "issue resumed after " + (t1 - start));
        rig.run(GpuMemoryTest.kernel(1, 32, 1, (c, w, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0xA000, 4, 4, true)));
        assertEquals(walks + 1, rig.translator.translations, "the page is walked again after the shootdown");
        assertTrue(t0 > 0);
    }
}
