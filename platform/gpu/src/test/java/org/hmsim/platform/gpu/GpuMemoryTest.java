package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.gpu.cache.L2Slice;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

class GpuMemoryTest {

    /** A warp that issues {@code n} instructions made by {@code make(i, in)} and exits. */
    interface Maker {
        void make(int cta, int warp, int i, WarpInstruction in);
    }

    static Kernel kernel(int ctas, int threads, int n, Maker m) {
        return TestSupport.kernel("k", ctas, threads, (cta, warp) -> new WarpProgram() {
            int i;

            @Override
            public boolean next(WarpInstruction in) {
                if (i == n) return false;
                m.make(cta, warp, i++, in);
                return true;
            }
        });
    }

    @Test
    void twoWarpsLoadingOneLineMakeOneDownstreamRequest() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 50_000);
        rig.run(kernel(1, 64, 1, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x10000, 4, 4, true)));
        Sm sm = rig.gpu.sms().get(0);
        assertEquals(2, sm.lineRequests());
        assertEquals(1, sm.l1().misses());
        assertEquals(1, sm.l1().mshrMerges());
        assertEquals(1, rig.fabric.reads);
        assertEquals(128, rig.fabric.readBytes);
        assertEquals(0, rig.gpu.inFlight());
    }

    @Test
    void sectorMissesFetchOnlyTheMissingSectors() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 50_000);
        // warp reads sector 0 of a line, then (after it returned) the whole line: 32 B then 96 B from memory
        rig.run(kernel(1, 32, 2, (cta, warp, i, in) -> {
            if (i == 0) {
                in.memory(WarpInstruction.Kind.LOAD, 4, 0x1, false);
                in.addresses[0] = 0x40000;
            } else TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x40000, 4, 4, true);
        }));
        assertEquals(2, rig.fabric.reads);
        assertEquals(128, rig.fabric.readBytes);
        long sectorMisses = rig.gpu.l2Slices().stream().mapToLong(L2Slice::sectorMisses).sum();
        assertEquals(4, sectorMisses);
    }

    private long streamTime(int mshrs, StatsRegistry[] statsOut) {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, mshrs), TestSupport.policies(), 200_000);
        StatsRegistry stats = new StatsRegistry();
        rig.gpu.registerStats(stats);
        statsOut[0] = stats;
        // 16 warps, each 8 loads of 32 distinct lines (stride 128 B): 4096 distinct lines, no reuse
        long t = rig.run(kernel(1, 512, 8, (cta, warp, i, in) ->
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x1000000L + ((long) warp * 8 + i) * 32 * 128, 128, 4, false)));
        assertEquals(4096, rig.fabric.reads);
        return t;
    }

    @Test
    void fewerMshrsStallTheLoadStoreUnitAndLowerThroughput() {
        StatsRegistry[] s2 = new StatsRegistry[1], s64 = new StatsRegistry[1];
        long t2 = streamTime(2, s2);
        long t64 = streamTime(64, s64);
        assertTrue(t2 > 4 * t64, "2 MSHRs " + t2 + " ps vs 64 MSHRs " + t64 + " ps");
        long stall2 = (long) s2[0].snapshot().get("gpu0.sm0.mshr_stall_cycles").doubleValue();
        long stall64 = (long) s64[0].snapshot().get("gpu0.sm0.mshr_stall_cycles").doubleValue();
        assertTrue(stall2 > stall64, stall2 + " vs " + stall64);
        assertTrue((long) s2[0].snapshot().get("gpu0.sm0.l1.mshr_full_refusals").doubleValue() > 0);
    }

    @Test
    void dirtyVictimsAreWrittenBack() {
        // one 4 KB slice of 2 ways: 32 lines. Storing 96 full lines evicts 64 dirty lines of 128 B each.
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, b.l1(), TestSupport.l2(4096, 2), 1, b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 50_000);
        rig.run(kernel(1, 32, 96, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.STORE, 0x80000 + 128L * i, 4, 4, false)));
        assertEquals(64, rig.fabric.writebacks);
        assertEquals(64 * 128, rig.fabric.writebackBytes);
        assertEquals(0, rig.fabric.reads, "full-sector writes allocate without a fetch");
        assertEquals(64, rig.gpu.l2Slices().get(0).writebacks());
    }

    /**
     * An L2 eviction invalidates L1 copies only where an L1 still holds the line: an L1 that replaced it told the L2
     * (its sharer bit cleared), so no invalidation is sent for it. One warp reads 64 lines once each through a 32-line
     * L2; with an 8-line L1 every copy is long gone when the L2 evicts it, with a 128-line L1 every copy is still there.
     */
    @Test
    void l2EvictionsInvalidateOnlyL1sStillHoldingTheLine() {
        long[][] sent = new long[2][];
        int[] l1Bytes = {1024, 16 * 1024};
        for (int c = 0; c < 2; c++) {
            GpuConfig b = TestSupport.config(1, 64);
            CacheConfig l1 = new CacheConfig(l1Bytes[c], l1Bytes[c] == 1024 ? 2 : 4, 128, 3, 64, 8, 128, 8);
            GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, l1, TestSupport.l2(4096, 2), 1, b.crossbar(), b.tlb());
            TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 50_000);
            StatsRegistry stats = new StatsRegistry();
            rig.gpu.registerStats(stats);
            rig.run(kernel(1, 32, 64, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x300000 + 128L * i, 4, 4, true)));
            var snap = stats.snapshot();
            sent[c] = new long[] {snap.get("gpu0.l2.slice0.invalidations").longValue(), snap.get("gpu0.sm0.l1.invalidations").longValue(),
                    snap.get("gpu0.l2.slice0.evictions").longValue()};
        }
        assertEquals(32, sent[0][2], "the L2 evicts the first 32 lines");
        assertEquals(0, sent[0][0], "an 8-line L1 dropped every evicted line before: no invalidation sent");
        assertEquals(32, sent[1][2]);
        assertEquals(32, sent[1][0], "a 128-line L1 still holds every evicted line");
        assertEquals(32, sent[1][1], "and drops each when told");
    }

    /**
     * The L2 evicting a line whose fill is still on its way to an L1 (the response left before the eviction): the fill
     * answers the warp but installs nothing, since the L2 no longer tracks that copy. The warp's second load of the
     * line misses again.
     */
    @Test
    void aFillOvertakenByItsLinesEvictionInstallsNothing() {
        for (boolean evictInFlight : new boolean[] {false, true}) {
            TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(1, 64), TestSupport.policies(), 50_000);
            Sm sm = rig.gpu.sms().get(0);
            long line = 0x500000;
            // the eviction reaches the L1 1 ns after its miss for the line went out (the fill takes > 100 ns)
            if (evictInFlight) rig.engine.schedule(1_000, new org.hmsim.api.engine.EventTarget() {
                @Override
                public void handle(int kind, long payload) {
                    if (sm.l1().misses() == 0) rig.engine.schedule(rig.engine.now() + 1_000, this, 0, 0);
                    else sm.l1().invalidateLine(line);
                }
            }, 0, 0);
            rig.run(kernel(1, 32, 2, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, line, 4, 4, true)));
            assertEquals(evictInFlight ? 2 : 1, sm.l1().misses(), evictInFlight ? "the fill installed no copy" : "the second load hits");
        }
    }

    /**
     * {@code posted-write-back} (GPGPU-Sim's L2): a read miss whose victim is dirty posts the write-back and fetches at
     * once; {@code conventional} (seed 003 M6) fetches only once the write-back is acknowledged. The same traffic,
     * sooner: 32 dirty lines, then 64 reads of other lines through a 32-line L2.
     */
    @Test
    void postedWriteBacksMoveTheSameBytesWithoutWaitingForThem() {
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, b.l1(), TestSupport.l2(4096, 2), 1, b.crossbar(), b.tlb());
        long[] time = new long[2];
        long[][] traffic = new long[2][];
        for (int posted = 0; posted < 2; posted++) {
            boolean p = posted == 1;
            GpuPolicies pol = new GpuPolicies(new TestSupport.Gto(), new TestSupport.Lru(), (l, r) -> true,
                    new org.hmsim.api.policy.L2MissPathPolicy() {
                        @Override public boolean postsWriteBacks() { return p; }
                    }, new TestSupport.RoundRobinCta(), new org.hmsim.api.policy.CoherencePolicy() {});
            TestSupport.Rig rig = new TestSupport.Rig(cfg, pol, 50_000);
            time[posted] = rig.run(kernel(1, 32, 96, (cta, warp, i, in) -> TestSupport.strided(in,
                    i < 32 ? WarpInstruction.Kind.STORE : WarpInstruction.Kind.LOAD, (i < 32 ? 0x80000 : 0x200000) + 128L * i, 4, 4, false)));
            traffic[posted] = new long[] {rig.fabric.reads, rig.fabric.writebacks, rig.fabric.writebackBytes};
        }
        assertArrayEquals(traffic[0], traffic[1], "the same reads and write-backs");
        assertEquals(32, traffic[1][1], "every dirty line written back");
        assertTrue(time[1] < time[0], "posted " + time[1] + " ps vs conventional " + time[0] + " ps");
    }

    /**
     * {@code l2.evict_notice} (seed 003's Multi2Sim, whose main-memory directory is told of every eviction): a clean
     * victim's eviction sends a header-only notice and its fetch waits for the acknowledgement; without it a clean
     * eviction is silent. 96 lines read through a 32-line L2: the same reads, 64 notices without data, a longer run.
     */
    @Test
    void cleanEvictionsWaitForTheMemorySidesAcknowledgementOfANotice() {
        GpuConfig b = TestSupport.config(1, 64);
        long[] time = new long[2];
        long[][] traffic = new long[2][];
        long[] notices = new long[2];
        for (int n = 0; n < 2; n++) {
            GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, b.l1(), TestSupport.l2(4096, 2).withEvictNotice(n == 1), 1,
                    b.crossbar(), b.tlb());
            TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 50_000);
            time[n] = rig.run(kernel(1, 32, 96, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x200000 + 128L * i, 4, 4, false)));
            traffic[n] = new long[] {rig.fabric.reads, rig.fabric.writebacks, rig.fabric.writebackBytes};
            notices[n] = rig.gpu.l2Slices().get(0).evictNotices();
        }
        assertEquals(96, traffic[0][0], "every line fetched once");
        assertEquals(traffic[0][0], traffic[1][0], "the same reads");
        assertEquals(0, traffic[0][1], "clean evictions are silent without evict_notice");
        assertEquals(64, traffic[1][1], "one notice per clean victim");
        assertEquals(64, notices[1]);
        assertEquals(0, traffic[1][2], "notices carry no data");
        assertTrue(time[1] > time[0], "noticed " + time[1] + " ps vs silent " + time[0] + " ps");
    }

    @Test
    void partialSectorWritebackSendsOnlyDirtySectors() {
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, b.l1(), TestSupport.l2(4096, 2), 1, b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 50_000);
        // one thread stores 4 B per line: one dirty sector per line
        rig.run(kernel(1, 32, 64, (cta, warp, i, in) -> {
            in.memory(WarpInstruction.Kind.STORE, 4, 0x1, false);
            in.addresses[0] = 0x80000 + 128L * i;
        }));
        assertEquals(32, rig.fabric.writebacks);
        assertEquals(32 * 32, rig.fabric.writebackBytes);
    }

    @Test
    void requestsAreRecycledThroughThePool() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(2, 64), TestSupport.policies(), 100_000);
        rig.run(kernel(8, 256, 16, (cta, warp, i, in) ->
                TestSupport.strided(in, i % 4 == 3 ? WarpInstruction.Kind.STORE : WarpInstruction.Kind.LOAD,
                        0x2000000L + ((long) (cta * 8 + warp) * 16 + i % 8) * 4096, 4, 4, i % 2 == 1)));
        long allocated = rig.pool.allocated();
        rig.run(kernel(8, 256, 16, (cta, warp, i, in) ->
                TestSupport.strided(in, i % 4 == 3 ? WarpInstruction.Kind.STORE : WarpInstruction.Kind.LOAD,
                        0x4000000L + ((long) (cta * 8 + warp) * 16 + i % 8) * 4096, 4, 4, i % 2 == 1)));
        assertTrue(rig.pool.allocated() <= allocated + 8, "pool grew from " + allocated + " to " + rig.pool.allocated());
        assertEquals(0, rig.gpu.inFlight());
    }

    @Test
    void l2MergesMissesFromDifferentSms() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(4, 64), TestSupport.policies(), 200_000);
        // 4 CTAs on 4 SMs all read the same line at once: 4 L1 misses, one L2 miss, 3 L2 MSHR merges
        rig.run(kernel(4, 32, 1, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x70000, 4, 4, true)));
        assertEquals(1, rig.fabric.reads);
        assertEquals(4, rig.gpu.sms().stream().mapToLong(s -> s.l1().misses()).sum());
        assertEquals(3, rig.gpu.l2Slices().stream().mapToLong(L2Slice::mshrMerges).sum());
    }

    @Test
    void anUncachedLinesMshrCountsOneMergeTargetPerL1() {
        // selective caching with 32 B transfers (seed 000 §6.2.2.3): 9 SMs each read sector 0 and then sector 1 of
        // one CPU-homed line while its fetch is pending. An L1's second request joins its own target in the L2 MSHR,
        // so the 8 merge slots take 8 SMs (16 requests) and only the 9th SM is NACKed (and retries)
        CacheabilityPolicy uncached = new CacheabilityPolicy() {
            @Override
            public boolean mayAllocate(int level, MemRequest request) { return false; }
        };
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(9, 64),
                TestSupport.policies(new TestSupport.Gto(), uncached, new TestSupport.RoundRobinCta()), 200_000);
        rig.run(kernel(9, 64, 1, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x90000 + 32L * warp, 0, 4, true)));
        assertEquals(0, rig.gpu.inFlight());
        long[] nacked = rig.gpu.sms().stream().mapToLong(sm -> sm.l1().nacksReceived()).toArray();
        assertEquals(8, Arrays.stream(nacked).filter(n -> n == 0).count(), "SMs never NACKed: " + Arrays.toString(nacked));
        assertTrue(Arrays.stream(nacked).sum() > 0, "the 9th SM finds the merge targets full");
    }

    @Test
    void fullyLockedSetsStallMissesButEverythingCompletes() {
        // a 2-way, 1-set L2 slice: a third concurrent miss to the set must wait for a fill
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, b.l1(), TestSupport.l2(256, 2), 1, b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 200_000);
        StatsRegistry stats = new StatsRegistry();
        rig.gpu.registerStats(stats);
        rig.run(kernel(1, 32, 1, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x90000, 128, 4, true)));
        assertEquals(32, rig.fabric.reads);
        assertTrue(stats.value("gpu0.l2.slice0.set_locked_stalls") > 0);
        assertTrue(stats.value("gpu0.l2.slice0.set_locked_stall_cycles") > 0);
        assertEquals(0, rig.gpu.inFlight());
    }

    @Test
    void fabricBackPressureIsHeldAndRetried() {
        TestSupport.Rig rig = new TestSupport.Rig(TestSupport.config(2, 64), TestSupport.policies(), 100_000);
        rig.fabric.capacity = 2;
        rig.run(kernel(4, 128, 4, (cta, warp, i, in) ->
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0x3000000L + ((long) (cta * 4 + warp) * 4 + i) * 4096, 128, 4, false)));
        assertEquals(4 * 4 * 4 * 32, rig.fabric.reads);
        assertTrue(rig.fabric.refusals > 0);
        assertEquals(0, rig.gpu.inFlight());
    }

    @Test
    void atomicsArePerformedAtTheL2AndDirtyTheLine() {
        GpuConfig b = TestSupport.config(1, 64);
        GpuConfig cfg = new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, b.l1(), TestSupport.l2(4096, 2), 1, b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 50_000);
        // 8 atomics to one word (fetched once), then 64 loads to other lines evict it: one 32 B write-back
        rig.run(kernel(1, 32, 72, (cta, warp, i, in) -> {
            if (i < 8) {
                in.memory(WarpInstruction.Kind.ATOMIC, 4, 0x1, true);
                in.addresses[0] = 0xC0000;
            } else TestSupport.strided(in, WarpInstruction.Kind.LOAD, 0xD0000 + 128L * i, 4, 4, false);
        }));
        assertEquals(1, rig.fabric.writebacks);
        assertEquals(32, rig.fabric.writebackBytes);
        assertEquals(0, rig.gpu.sms().get(0).l1().hits());
    }
}
