package org.hmsim.platform.gpu;

import static org.hmsim.platform.gpu.GpuMemoryTest.kernel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

/**
 * What an L2 write hit is: a store into a line in flight ({@code write_merges}) or into a present line, present in the
 * order the slice serves stores; under NACKs that is not program order, as the L1 sends new requests past its re-send
 * queue ({@code sent_past_resends}). A tester's repro: one warp, lane 0 storing 4 B to the next line, cycling over
 * 64 KB through a 32 KB 8-way L2 with 16 MSHRs, made one write hit that LRU in program order cannot make.
 */
class L2WriteHitsTest {
    private static final long BASE = 0x400000;

    /** One SM: a 4 KB 4-way write-through L1 (8 MSHRs); one 32 KB 8-way L2 slice, 20 cycles, 16 MSHRs. */
    private static GpuConfig tiny() {
        GpuConfig b = TestSupport.config(1, 8);
        return new GpuConfig(1000, 1, 8, 48, 48 * 1024, 2, new CacheConfig(4096, 4, 128, 3, 8, 8, 128, 8),
                new CacheConfig(32 * 1024, 8, 128, 20, 16, 8, 128, 32), 1, new CrossbarConfig(4, 32, 16), b.tlb());
    }

    private static Map<String, Double> run(GpuConfig cfg, long fabricPs, int n, WarpInstructionMaker m) {
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), fabricPs);
        StatsRegistry stats = new StatsRegistry();
        rig.gpu.registerStats(stats);
        rig.run(kernel(1, 32, n, (cta, warp, i, in) -> m.make(i, in)));
        return stats.snapshot();
    }

    interface WarpInstructionMaker {
        void make(int i, WarpInstruction in);
    }

    private static long stat(Map<String, Double> s, String name) {
        Double v = s.get(name);
        if (v == null) throw new AssertionError("no statistic " + name);
        return v.longValue();
    }

    /** Lane 0 stores 4 B at {@code addr}. */
    private static void storeLane0(WarpInstruction in, long addr) {
        TestSupport.strided(in, WarpInstruction.Kind.STORE, addr, 4, 4, false);
        in.activeMask = 1;
    }

    @Test
    void aStoreIntoALineInFlightIsAWriteMerge() {
        // a load misses and starts the line's fetch; the store right behind it finds the line in flight
        Map<String, Double> s = run(tiny(), 200_000, 2, (i, in) -> {
            if (i == 0) TestSupport.strided(in, WarpInstruction.Kind.LOAD, BASE, 4, 4, false);
            else storeLane0(in, BASE);
        });
        assertEquals(1, stat(s, "gpu0.l2.slice0.write_hits"));
        assertEquals(1, stat(s, "gpu0.l2.slice0.write_merges"), "the store went into the fetch in flight");
        assertEquals(0, stat(s, "gpu0.l2.slice0.write_misses"));
    }

    /**
     * 512 lines, 16 per L2 set through 8 ways: in program order every store misses (LRU). With a 120 ns memory the 16
     * MSHRs NACK most stores; a NACKed one is re-sent after younger stores to its set went ahead, so the slice serves
     * the line's store late, and its next store finds it present (or still in flight): write hits, none lost.
     */
    @Test
    void nackedStoresReachTheL2OutOfProgramOrderAndItsHitsFollowThatOrder() {
        int n = 2048;
        Map<String, Double> s = run(tiny(), 120_000, n, (i, in) -> storeLane0(in, BASE + 128L * (i % 512)));
        long hits = stat(s, "gpu0.l2.slice0.write_hits"), misses = stat(s, "gpu0.l2.slice0.write_misses");
        long merges = stat(s, "gpu0.l2.slice0.write_merges");
        assertEquals(n, hits + misses, "each store counted once, however often it was NACKed");
        assertTrue(stat(s, "gpu0.l2.slice0.nacks") > 0, "16 MSHRs NACK stores");
        assertEquals(stat(s, "gpu0.sm0.l1.nacks_received"), stat(s, "gpu0.l2.slice0.nacks"));
        assertTrue(stat(s, "gpu0.sm0.l1.sent_past_resends") > 0, "younger stores went ahead of NACKed ones");
        assertTrue(merges > 0, "some stores found their line still in flight: " + merges);
        assertTrue(hits - merges > 0, "and some found it present, where program-order LRU had evicted it: " + (hits - merges));
        assertEquals(misses - 256, stat(s, "gpu0.l2.slice0.writebacks"), "every allocation past the 256 ways evicts a dirty line: "
                + "a hit saves a write-back, no store is lost");
    }
}
