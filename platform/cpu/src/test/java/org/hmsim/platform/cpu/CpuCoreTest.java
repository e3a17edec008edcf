package org.hmsim.platform.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.workload.HostPhase;
import org.junit.jupiter.api.Test;

/** CPU cores: the MLP window bounds the misses in flight; faults stall and shoot pages down. */
class CpuCoreTest {
    private static long run(int mlp, long faultCycles) {
        CpuConfig c = Rig.small(Rig.dir(4096, 4, 4, 64));
        c = new CpuConfig(1, 2000, mlp, c.l1(), c.l2(), c.llc(), c.llcMshrs(), c.directory(), c.gpuFaultStall());
        Rig rig = new Rig(c, CoherencePolicy.PATH_MEMORY);
        rig.faultCycles = faultCycles;
        boolean[] done = {false};
        rig.cpu.runPhase(new HostPhase(0, "init", List.of(new HostPhase.Stream(0, 64 * 256, 64, false)), 0), () -> done[0] = true);
        rig.engine.run();
        assertTrue(done[0]);
        assertEquals(256, rig.memory.reads);
        return rig.engine.now();
    }

    @Test
    void aWiderWindowOverlapsMisses() {
        long serial = run(1, 0), wide = run(8, 0);
        assertTrue(serial > 6 * wide, "MLP 8 overlaps 8 misses: " + serial + " vs " + wide);
        assertTrue(serial >= 256 * 50_000L, "one 50 ns miss at a time");
    }

    /**
     * A miss costs its look-up in L1, L2 and the LLC (2 + 8 + 20 cycles at 2 GHz = 15 ns) on top of the memory's
     * 50 ns, one miss at a time with a window of 1: 256 misses take 256 x 65 ns, plus an issue cycle each. A
     * review found the look-up left out (every miss took the memory time alone).
     */
    @Test
    void aMissPaysItsLookUpInEveryLevelBesidesTheMemory() {
        long t = run(1, 0);
        assertTrue(t >= 256 * 65_000L && t <= 256 * 66_000L, "256 misses of 50 ns memory + 15 ns look-up each, took " + t + " ps");
    }

    @Test
    void mergedLoadsToALineInFlightCostOneMemoryRead() {
        Rig rig = new Rig(Rig.small(Rig.dir(4096, 4, 4, 64)), CoherencePolicy.PATH_MEMORY);
        rig.cpu.runPhase(new HostPhase(0, "p", List.of(new HostPhase.Stream(0, 4096, 4, false)), 0), () -> {});
        rig.engine.run();
        assertEquals(64, rig.memory.reads, "1024 word loads, 64 lines");
    }
}
