package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.junit.jupiter.api.Test;

/** One warp's dependent loads on an idle GPU take exactly the sum of the configured latencies. */
class GpuLatencyTest {
    /** A whole number of GPU cycles (714 ps at 1.4 GHz): the warp re-issues on a clock edge. */
    private static final long FABRIC_PS = 140 * 714;

    /** One warp; load i reads {@code addr(i)} (one 4 B thread) and waits for load i-1. Records issue times. */
    private static Kernel chase(int loads, java.util.function.LongUnaryOperator addr, List<Long> issueTimes, TestSupport.Rig[] rig) {
        return TestSupport.kernel("chase", 1, 32, (cta, warp) -> new WarpProgram() {
            int i;

            @Override
            public boolean next(WarpInstruction in) {
                issueTimes.add(rig[0].engine.now());
                if (i == loads) return false;
                in.memory(WarpInstruction.Kind.LOAD, 4, 0x1, true);
                in.addresses[0] = addr.applyAsLong(i++);
                return true;
            }
        });
    }

    /** Gaps between consecutive issues from the third on (the first load also takes the TLB miss). */
    private static List<Long> gaps(GpuConfig cfg, CacheabilityPolicy cacheability, int loads, java.util.function.LongUnaryOperator addr) {
        return gaps(cfg, cacheability, loads, addr, new long[1]);
    }

    /** As above; {@code walks[0]} is set to the page walks the run's MMU started (its L2 TLB misses). */
    private static List<Long> gaps(GpuConfig cfg, CacheabilityPolicy cacheability, int loads, java.util.function.LongUnaryOperator addr, long[] walks) {
        TestSupport.Rig[] rig = {new TestSupport.Rig(cfg, TestSupport.policies(new TestSupport.Gto(), cacheability, new TestSupport.RoundRobinCta()), FABRIC_PS)};
        List<Long> t = new ArrayList<>();
        rig[0].run(chase(loads, addr, t, rig));
        walks[0] = rig[0].translator.misses;
        List<Long> g = new ArrayList<>();
        for (int i = 2; i < t.size() - 1; i++) g.add(t.get(i + 1) - t.get(i));
        // every load issued: the callers' checks of each gap are not vacuous
        assertEquals(loads - 2, g.size(), "gaps between the loads from the third on");
        return g;
    }

    @Test
    void l2MissLatencyIsTheSumOfConfiguredLatencies() {
        GpuConfig cfg = TestSupport.config(1, 64);
        TestSupport.Rig probe = new TestSupport.Rig(cfg, TestSupport.policies(), FABRIC_PS);
        long expected = probe.gpu.unloadedLoadLatencyPs(3, 1, 0, FABRIC_PS);
        long p = probe.gpu.clock().periodPs();
        // 1 (TLB) + 3 (L1) + (4 + 1) xbar header + 120 (L2) + (4 + 1) xbar 32 B at 32 B/cycle = 134 cycles + fabric
        assertEquals(134 * p + FABRIC_PS, expected);
        List<Long> g = gaps(cfg, (l, r) -> true, 20, i -> 0x100000 + 128 * i); // distinct lines of one page
        for (long x : g) assertEquals(expected, x);
    }

    @Test
    void l2HitLatencyWhenTheL1MayNotAllocate() {
        GpuConfig cfg = TestSupport.config(1, 64);
        TestSupport.Rig probe = new TestSupport.Rig(cfg, TestSupport.policies(), FABRIC_PS);
        long expected = probe.gpu.unloadedLoadLatencyPs(2, 1, 0, 0);
        // the same line over and over: the L1 never keeps it, the L2 does after the first miss
        List<Long> g = gaps(cfg, (level, r) -> level != 1, 12, i -> 0x200000);
        for (long x : g) assertEquals(expected, x);
    }

    @Test
    void l1HitLatency() {
        GpuConfig cfg = TestSupport.config(1, 64);
        TestSupport.Rig probe = new TestSupport.Rig(cfg, TestSupport.policies(), FABRIC_PS);
        long expected = probe.gpu.unloadedLoadLatencyPs(1, 1, 0, 0);
        assertEquals(4 * probe.gpu.clock().periodPs(), expected);
        List<Long> g = gaps(cfg, (l, r) -> true, 12, i -> 0x300000);
        for (long x : g) assertEquals(expected, x);
    }

    @Test
    void tlbMissAddsL2TlbAndWalkLatency() {
        GpuConfig cfg = TestSupport.config(1, 64);
        TestSupport.Rig probe = new TestSupport.Rig(cfg, TestSupport.policies(), FABRIC_PS);
        long p = probe.gpu.clock().periodPs();
        long expected = probe.gpu.unloadedLoadLatencyPs(3, 1, 0, FABRIC_PS) + (10 + 100) * p;
        List<Long> g = gaps(cfg, (l, r) -> true, 12, i -> 0x400000 + 4096 * 3 * i); // a new page each time
        for (long x : g) assertEquals(expected, x);
    }

    @Test
    void l2TlbHitAddsOnlyItsLatency() {
        // A 4-entry L1 TLB: cycling over 8 pages misses it every time but hits the 512-entry L2 TLB after
        // the first round. The L1 may not allocate, so the second round's data comes from the L2.
        GpuConfig base = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(base.clockMHz(), 1, 8, 48, 48 * 1024, 2, base.l1(), base.l2(), 2, base.crossbar(),
                new TlbConfig(4, 4, 1, 512, 16, 10, 100, 8, 100));
        TestSupport.Rig probe = new TestSupport.Rig(cfg, TestSupport.policies(), FABRIC_PS);
        long p = probe.gpu.clock().periodPs();
        long expected = probe.gpu.unloadedLoadLatencyPs(2, 1, 0, 0) + 10 * p;
        long[] walks = new long[1];
        List<Long> g = gaps(cfg, (level, r) -> level != 1, 24, i -> 0x500000 + 4096 * (i % 8), walks);
        for (int i = 8; i < g.size(); i++) assertEquals(expected, g.get(i), "gap " + i);
        assertEquals(8, walks[0], "one walk per page in the first round; the later rounds hit the L2 TLB");
    }
}
