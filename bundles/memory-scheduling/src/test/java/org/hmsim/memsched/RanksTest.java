package org.hmsim.memsched;

import static org.junit.jupiter.api.Assertions.*;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.DramSchedulerPolicy;
import org.junit.jupiter.api.Test;

/** Each policy's ranks on the cases its paper describes (lower goes first). */
class RanksTest {
    private static MemRequest from(int gpu) {
        MemRequest r = new MemRequest();
        r.gpu = gpu;
        return r;
    }

    private static final MemRequest CPU = from(-1), GPU = from(0), GPU1 = from(1);

    @Test
    void cpuFirstStrictPutsACpuMissAboveAGpuRowHitAndAfterRowHitsDoesNot() {
        DramSchedulerPolicy.State strict = new CpuFirst(true).forChannel(0, 0, 8), after = new CpuFirst(false).forChannel(0, 0, 8);
        assertTrue(strict.rank(CPU, 0, false) < strict.rank(GPU, 0, true));
        assertTrue(after.rank(GPU, 0, true) < after.rank(CPU, 0, false));
        for (DramSchedulerPolicy.State s : new DramSchedulerPolicy.State[] {strict, after}) {
            assertTrue(s.rank(CPU, 0, true) < s.rank(GPU, 0, true), "among hits the CPU first");
            assertTrue(s.rank(CPU, 0, false) < s.rank(GPU, 0, false), "among misses the CPU first");
            assertTrue(s.rank(GPU, 0, true) < s.rank(GPU, 0, false), "within a side, FR-FCFS");
        }
    }

    @Test
    void frFcfsCapDemotesABanksHitsAfterCapColumnsUntilTheNextActivate() {
        DramSchedulerPolicy.State s = new FrFcfsCap(3).forChannel(0, 0, 2);
        s.onActivate(GPU, 0);
        for (int k = 0; k < 3; k++) {
            assertTrue(s.rank(GPU, 0, true) < s.rank(CPU, 0, false), "hit " + k + " still first");
            s.onColumn(GPU, 0);
        }
        assertEquals(s.rank(CPU, 0, false), s.rank(GPU, 0, true), "after the cap a hit ranks with the misses: the oldest goes");
        assertTrue(s.rank(GPU, 1, true) < s.rank(GPU, 1, false), "another bank's run is its own");
        s.onActivate(GPU, 0);
        assertTrue(s.rank(GPU, 0, true) < s.rank(CPU, 0, false), "a new row starts a new run");
    }

    /** Where every request is a GPU's the CPU-aware rules are FR-FCFS: their providers say so (a trial's runs repeated fr-fcfs silently). */
    @Test
    void cpuAwarePoliciesSayWhenThereIsNoCpuToFavour() {
        org.hmsim.api.machine.PoolInfo gddr = new org.hmsim.api.machine.PoolInfo(0, "gddr", "GDDR5", 0, 4, 100e9, 1L << 30);
        org.hmsim.api.policy.RunFacts gpuOnly = new org.hmsim.api.policy.RunFacts(java.util.List.of(gddr), 4096, 1, false, false, java.util.List.of()),
                apu = new org.hmsim.api.policy.RunFacts(java.util.List.of(gddr), 4096, 1, false, true, java.util.List.of()),
                twoGpus = new org.hmsim.api.policy.RunFacts(java.util.List.of(gddr), 4096, 2, false, false, java.util.List.of());
        for (org.hmsim.api.policy.PolicyProvider p : java.util.List.of(new CpuFirstProvider(), new BlissProvider())) {
            org.hmsim.api.policy.Params none = org.hmsim.api.policy.Params.validate(p.parameters(), java.util.Map.of());
            assertTrue(p.note(none, gpuOnly).contains("repeat fr-fcfs"), p.name());
            assertNull(p.note(none, apu), p.name() + " with a CPU side");
        }
        assertNull(new BlissProvider().note(org.hmsim.api.policy.Params.validate(new BlissProvider().parameters(), java.util.Map.of()), twoGpus),
                "two GPUs are two sources");
    }

    /** An engine whose clock the test sets. */
    private static final class Clock implements Engine {
        long now;

        @Override public long now() { return now; }

        @Override public void schedule(long timePs, EventTarget target, int kind, long payload) { throw new AssertionError(); }

        @Override public long eventsHandled() { return 0; }
    }

    @Test
    void blissBlacklistsASourceServedMoreThanThresholdTimesInARowUntilTheClearing() {
        Clock clock = new Clock();
        Bliss bliss = new Bliss(4, 10_000_000, clock, 2);
        DramSchedulerPolicy.State s = bliss.forChannel(0, 0, 8);
        for (int k = 0; k < 4; k++) s.onColumn(GPU, 0);
        assertTrue(s.rank(GPU, 0, true) < s.rank(CPU, 0, false), "4 in a row: not yet (the paper's 'exceeds')");
        s.onColumn(GPU, 0);
        assertTrue(s.rank(CPU, 0, false) < s.rank(GPU, 0, true), "the 5th blacklists GPU 0: the CPU's miss goes before its hit");
        assertTrue(s.rank(GPU1, 0, true) < s.rank(GPU1, 0, false), "GPU 1 is not blacklisted");
        assertTrue(s.rank(GPU1, 0, false) < s.rank(GPU, 0, true));
        assertEquals(1, bliss.blacklistings());
        s.onColumn(CPU, 0);
        s.onColumn(GPU, 0);
        assertTrue(s.rank(CPU, 0, false) < s.rank(GPU, 0, true), "another source's request breaks the run, not the blacklist");
        clock.now = 10_000_000;
        assertTrue(s.rank(GPU, 0, true) < s.rank(CPU, 0, false), "cleared at the interval");
        DramSchedulerPolicy.State other = bliss.forChannel(0, 1, 8);
        assertTrue(other.rank(GPU, 0, true) < other.rank(CPU, 0, false), "each channel keeps its own list");
    }
}
