package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.cache.L2Slice;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A coherence swap (issue 4, DESIGN §6) writes back and invalidates what the protocol requires at its safe
 * point: every dirty L2 line goes to DRAM through the normal write-back path, every L1 and L2 line is
 * invalidated, the new protocol starts only once those write-backs reached DRAM, and no request is lost.
 */
class CoherenceSwapTest {
    private static final long EPOCH = 1_000_000; // 1 us

    @Test
    void coherenceSwapMidRunFlushesTheCachesAndLosesNoRequest() {
        // stream writes c[i]: the L2 holds dirty lines at any moment of the run
        SwappableProviders plain = new SwappableProviders();
        RunResult base = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 65536), plain);
        SwappableProviders src = new SwappableProviders()
                .swap(new ScriptedSwap(When.TIME, base.simTimePs() / 2, Slot.COHERENCE, new Choice("none", Map.of())));
        Machine m = new Machine(TestMachines.machine("small"), src, 1, "coh");
        SwapControl control = new SwapControl("coh");
        for (Slot s : Slot.values()) control.setActive(s, src.describe(s), "classpath");
        Swapper swapper = new Swapper(m, src, src.scripted(), control, 1, "coh");
        RunResult r = Simulation.run(m, new RunSpec("coh", m.cfg, TestMachines.workload("stream", 1, "elements", 65536), src, 1, EPOCH, 0), swapper);

        assertEquals(1, control.records().size(), control.records().toString());
        SwapRecord rec = control.records().get(0);
        assertEquals("ok", rec.outcome(), rec.toString());
        assertTrue(rec.drainSimPs() > 0, "the memory system drains: " + rec);
        long[] f = swapper.lastFlush;
        assertTrue(f[0] > 0, "dirty L2 lines were written back: " + rec.state());
        assertTrue(f[1] >= f[0] && f[2] > 0, "L2 and L1 lines were invalidated: " + rec.state());
        assertTrue(rec.state().contains(f[0] + " dirty L2 lines written back"), rec.state());
        // The new protocol started once the flush's write-backs were served by DRAM: one DRAM write each
        // (nothing else was in flight and issue was held).
        assertEquals(f[0], f[4] - f[3], "DRAM writes during the flush = dirty lines written back");

        // every request taken was given back; nothing in flight; every L2 read miss was answered
        assertEquals(0, outstanding(m.requests), "every request taken from the pool was given back");
        for (Gpu g : m.gpus) {
            assertEquals(0, g.inFlight(), "nothing in flight at the end");
            for (L2Slice s : g.l2Slices()) assertEquals(0, s.mshrsInUse());
        }
        double writebacks = 0;
        for (int i = 0; i < m.gpus.get(0).l2Slices().size(); i++) writebacks += r.stats().get("gpu0.l2.slice" + i + ".writebacks");
        assertTrue(writebacks >= f[0], "the flush's write-backs count as L2 write-backs: " + writebacks);
        assertEquals(base.memoryRequests(), r.memoryRequests(), "the same line requests reached the L1s");
    }

    /** Requests taken from the pool and never given back. */
    static long outstanding(RequestPool pool) {
        long created = pool.allocated();
        long free = 0;
        while (true) {
            pool.take();
            if (pool.allocated() > created) break;
            free++;
        }
        return created - free;
    }
}
