package org.hmsim.platform.gpu;

import static org.hmsim.platform.gpu.GpuMemoryTest.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.gpu.cache.L2Slice;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

/**
 * {@code gpu.l1.write_policy: write-back} (Multi2Sim's NMOESI GPU L1, as the FRC thesis group's simulator ran it) and
 * {@code gpu.l2.invalidation: crossbar} (a victim's L1 copies invalidated by packets that queue with the crossbar's
 * traffic). One warp stores whole 128 B lines (32 threads x 4 B), so every store is one full line.
 */
class L1WriteBackTest {
    private static final long BASE = 0x400000;

    /** One SM; a 16 KB L1 (128 lines), an L2 of {@code l2Bytes} in one 2-way slice. */
    private static GpuConfig config(boolean writeBack, boolean messages, long l2Bytes, CrossbarConfig xbar) {
        GpuConfig b = TestSupport.config(1, 64);
        return new GpuConfig(b.clockMHz(), 1, 8, 48, 48 * 1024, 2, TestSupport.l1(64).withWriteBack(writeBack),
                TestSupport.l2(l2Bytes, 2).withInvalidationMessages(messages), 1, xbar, b.tlb());
    }

    private record Run(long timePs, Map<String, Double> stats, TestSupport.Rig rig) {
        long stat(String name) { return stats.get(name).longValue(); }
    }

    /** {@code passes} times over {@code lines} lines, one full-line store each ({@code loadFirst}: a load of the line before). */
    private static Run storeLines(GpuConfig cfg, int lines, int passes, boolean loadFirst) {
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 50_000);
        StatsRegistry stats = new StatsRegistry();
        rig.gpu.registerStats(stats);
        int per = loadFirst ? 2 : 1;
        long t = rig.run(kernel(1, 32, lines * passes * per, (cta, warp, i, in) -> {
            boolean load = loadFirst && i % 2 == 0;
            TestSupport.strided(in, load ? WarpInstruction.Kind.LOAD : WarpInstruction.Kind.STORE,
                    BASE + 128L * ((i / per) % lines), 4, 4, load);
        }));
        return new Run(t, stats.snapshot(), rig);
    }

    @Test
    void storesAllocateFetchingTheLineAndStayInTheL1() {
        Run wb = storeLines(config(true, false, 128 * 1024, TestSupport.config(1, 64).crossbar()), 32, 2, false);
        assertEquals(32, wb.stat("gpu0.sm0.l1.write_misses"), "the first pass allocates");
        assertEquals(32, wb.stat("gpu0.sm0.l1.write_hits"), "the second pass hits");
        assertEquals(32, wb.stat("gpu0.xbar.req_packets"), "one line fetch per line, no store leaves the L1");
        assertEquals(32, wb.rig.fabric.reads, "the L2 fetched every line (the fork's nc_store reads the block)");
        assertEquals(0, wb.stat("gpu0.sm0.l1.write_backs"));
        assertEquals(0, wb.rig.gpu.sms().get(0).outstandingStores(), "every store was acknowledged");

        Run wt = storeLines(config(false, false, 128 * 1024, TestSupport.config(1, 64).crossbar()), 32, 2, false);
        assertEquals(64, wt.stat("gpu0.xbar.req_packets"), "write-through: every store goes on to the L2");
        assertEquals(0, wt.rig.fabric.reads, "write-through: whole-line stores fetch nothing");
    }

    @Test
    void aReplacedDirtyLineIsWrittenBackToTheL2() {
        Run r = storeLines(config(true, false, 128 * 1024, TestSupport.config(1, 64).crossbar()), 256, 1, false);
        assertEquals(128, r.stat("gpu0.sm0.l1.write_backs"), "256 dirty lines through a 128-line L1");
        assertEquals(128 * 4, r.stat("gpu0.sm0.l1.write_back_sectors"));
        assertEquals(256 + 128, r.stat("gpu0.xbar.req_packets"), "the fetches and the write-backs");
        assertEquals(128, r.stat("gpu0.l2.slice0.write_hits"), "each write-back found its line in the L2");
        assertEquals(256 * 8 + 128 * 128, r.stat("gpu0.xbar.req_bytes"));
    }

    /**
     * A 32-line L2 under a 128-line L1: storing 64 lines makes the L2 evict 32 lines the L1 still holds dirty. The
     * invalidation brings their data back and the victim's write-back carries it to memory, with either way of
     * invalidating; as packets, each invalidation is a header down and the data (8 + 128 B) back.
     */
    @Test
    void anL2EvictionTakesTheL1sDirtyDataAlong() {
        for (boolean messages : new boolean[] {false, true}) {
            Run r = storeLines(config(true, messages, 4096, TestSupport.config(1, 64).crossbar()), 64, 1, false);
            String how = messages ? "crossbar: " : "fixed: ";
            assertEquals(64, r.rig.fabric.reads, how + "every line fetched once");
            assertEquals(32, r.stat("gpu0.l2.slice0.invalidations"), how + "every victim was in the L1");
            assertEquals(32, r.stat("gpu0.sm0.l1.dirty_invalidations"), how + "and dirty there");
            assertEquals(32, r.rig.fabric.writebacks, how + "each victim written back");
            assertEquals(32 * 128, r.rig.fabric.writebackBytes, how + "with the L1's data");
            assertEquals(messages ? 32 : 0, r.stat("gpu0.xbar.invalidation_messages"), how);
            if (messages) {
                assertEquals(64 * 8 + 32 * (8 + 128), r.stat("gpu0.xbar.req_bytes"), "fetch requests and data-carrying acknowledgements");
                assertEquals(r.stat("gpu0.xbar.req_packets"), r.stat("gpu0.xbar.resp_packets"), "every invalidation acknowledged");
            }
        }
    }

    /**
     * With narrow crossbar ports (4 B per cycle: a 128 B fill takes 32 cycles), an invalidation packet waits behind the
     * fills queued on the slice's port, so a victim's eviction takes longer than the unloaded round trip the fixed mode
     * charges. Loads of 96 lines through a 32-line L2, each line loaded twice so the L1 holds it when it is evicted.
     */
    @Test
    void invalidationPacketsQueueBehindTheFills() {
        CrossbarConfig narrow = new CrossbarConfig(4, 4, 16);
        double[] evictPsPerInvalidation = new double[2];
        for (int k = 0; k < 2; k++) {
            TestSupport.Rig rig = new TestSupport.Rig(config(false, k == 1, 4096, narrow), TestSupport.policies(), 50_000);
            StatsRegistry stats = new StatsRegistry();
            rig.gpu.registerStats(stats);
            rig.run(kernel(4, 256, 96, (cta, warp, i, in) -> TestSupport.strided(in, WarpInstruction.Kind.LOAD,
                    BASE + 128L * ((i + 11L * warp + 37L * cta) % 96), 4, 4, false)));
            var s = stats.snapshot();
            assertTrue(s.get("gpu0.l2.slice0.invalidations").longValue() > 100, "too few invalidations to compare");
            evictPsPerInvalidation[k] = s.get("gpu0.l2.slice0.evict_latency_ps").doubleValue() / s.get("gpu0.l2.slice0.invalidations").doubleValue();
        }
        assertTrue(evictPsPerInvalidation[1] > 1.5 * evictPsPerInvalidation[0],
                "queued invalidations were not slower: " + evictPsPerInvalidation[1] + " vs " + evictPsPerInvalidation[0] + " ps per invalidation");
    }

    /**
     * A coherence swap's flush: the L2 writes back and drops its lines, then the L1's dirty sectors leave through
     * their slice as write-backs.
     */
    @Test
    void invalidateAllSendsTheDirtySectorsOnAfterTheL2sFlush() {
        Run r = storeLines(config(true, false, 128 * 1024, TestSupport.config(1, 64).crossbar()), 32, 1, false);
        L2Slice slice = r.rig.gpu.l2Slices().get(0);
        assertEquals(0, slice.writeBackAndInvalidateAll()[0], "the L2's copies are clean: the stores stayed in the L1");
        assertEquals(32, r.rig.gpu.sms().get(0).l1().invalidateAll());
        r.rig.engine.run();
        assertEquals(32, r.rig.fabric.writebacks, "every dirty L1 line reached memory");
        assertEquals(32 * 128, r.rig.fabric.writebackBytes);
    }

    /**
     * An atomic is performed at the L2 and invalidates the L1's copy: a dirty copy's sectors go to the L2 after it
     * (found by a review: they were dropped with the line). A full-line store, a load of the line, then a one-thread
     * atomic on it: the flush afterwards writes the whole line back, not just the atomic's sector.
     */
    @Test
    void anAtomicToADirtyLineKeepsItsData() {
        TestSupport.Rig rig = new TestSupport.Rig(config(true, false, 128 * 1024, TestSupport.config(1, 64).crossbar()), TestSupport.policies(), 50_000);
        rig.run(kernel(1, 32, 3, (cta, warp, i, in) -> {
            if (i < 2) TestSupport.strided(in, i == 0 ? WarpInstruction.Kind.STORE : WarpInstruction.Kind.LOAD, BASE, 4, 4, i == 1);
            else {
                in.memory(WarpInstruction.Kind.ATOMIC, 4, 0x1, true);
                in.addresses[0] = BASE;
            }
        }));
        assertEquals(1, rig.gpu.sms().get(0).l1().writeBacks(), "the atomic sent the dirty line on");
        rig.gpu.l2Slices().get(0).writeBackAndInvalidateAll();
        rig.gpu.sms().get(0).l1().invalidateAll();
        rig.engine.run();
        assertEquals(128, rig.fabric.writebackBytes, "the stored line and the atomic's sector, written back once");
    }
}
