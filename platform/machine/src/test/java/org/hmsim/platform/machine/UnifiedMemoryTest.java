package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

/**
 * Demand paging of unified memory (seed 002 §2.1) on a small `etc` machine: far faults are real events,
 * eviction happens only under oversubscription, and the fault handler's latency is on the critical path.
 */
class UnifiedMemoryTest {
    private static final int ELEMENTS = 1 << 18; // 3 arrays x 1 MB = 48 pages of 64 KB

    static RunResult stream(double oversubscription, String faultLatency, String prefetcher, int iterations) {
        return stream(oversubscription, faultLatency, prefetcher, iterations, 1);
    }

    static RunResult stream(double oversubscription, String faultLatency, String prefetcher, int iterations, int handlers) {
        return stream(oversubscription, faultLatency, prefetcher, iterations, handlers, false);
    }

    static RunResult stream(double oversubscription, String faultLatency, String prefetcher, int iterations, int handlers, boolean prefetchEvicts) {
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", oversubscription,
                "uvm.fault_latency", faultLatency, "uvm.prefetcher", prefetcher, "uvm.fault_handlers", handlers,
                "uvm.prefetch_evicts", prefetchEvicts);
        return TestMachines.run(m, TestMachines.workload("stream", 1, "elements", ELEMENTS, "ctas", 64, "iterations", iterations),
                new ClasspathPolicies());
    }

    static double stat(RunResult r, String name) {
        Double v = r.stats().get(name);
        if (v == null) throw new AssertionError("no statistic " + name);
        return v;
    }

    @Test
    void everyPageFaultsOnceWhenTheFootprintFits() {
        RunResult r = stream(1.0, "20us", "none", 1);
        assertEquals(48, stat(r, "uvm.footprint_pages"));
        assertEquals(48, stat(r, "uvm.faults") + stat(r, "uvm.prefetches"));
        assertEquals(0, stat(r, "uvm.evictions"));
        assertEquals(48 * 65536, stat(r, "uvm.h2d.bytes"));
        assertTrue(stat(r, "uvm.fault_batches") >= 2, "faults are served in batches");
        // every batch costs at least the 20 us handler, so the run is far longer than the unpaged stream
        assertTrue(r.simTimePs() > 20_000_000L * stat(r, "uvm.fault_batches"));
    }

    /** uvm.preload: what GPU memory holds is resident at the first launch, with no copy counted; the rest faults. */
    @Test
    void preloadMakesTheFittingPagesResidentBeforeTheFirstKernel() {
        MachineConfig fits = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 1.0, "uvm.prefetcher", "none", "uvm.preload", true);
        RunResult all = TestMachines.run(fits, TestMachines.workload("stream", 1, "elements", ELEMENTS, "ctas", 64, "iterations", 1), new ClasspathPolicies());
        assertEquals(48, stat(all, "uvm.preloaded"));
        assertEquals(0, stat(all, "uvm.faults"));
        assertEquals(0, stat(all, "uvm.h2d.bytes"));
        RunResult cold = stream(1.0, "20us", "none", 1);
        assertTrue(all.simTimePs() * 10 < cold.simTimePs(), "preloaded " + all.simTimePs() + " ps, demand-paged " + cold.simTimePs() + " ps");

        MachineConfig half = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.prefetcher", "none", "uvm.preload", true);
        RunResult h = TestMachines.run(half, TestMachines.workload("stream", 1, "elements", ELEMENTS, "ctas", 64, "iterations", 1), new ClasspathPolicies());
        assertEquals(24, stat(h, "uvm.preloaded"));
        // the other half faults in, evicting preloaded pages to make room (the stream's three arrays are read together,
        // so some preloaded pages come back too)
        assertTrue(stat(h, "uvm.faults") >= 24, "faults " + stat(h, "uvm.faults"));
        assertTrue(stat(h, "uvm.evictions") >= 24, "evictions " + stat(h, "uvm.evictions"));
    }

    @Test
    void oversubscriptionEvictsAndRefaults() {
        RunResult fit = stream(1.0, "20us", "tree", 2);
        RunResult half = stream(0.5, "20us", "tree", 2);
        assertEquals(0, stat(fit, "uvm.evictions"));
        assertTrue(stat(half, "uvm.evictions") > 0);
        assertTrue(stat(half, "uvm.d2h.bytes") > 0);
        // the second pass re-faults what the first evicted
        assertTrue(stat(half, "uvm.faults") + stat(half, "uvm.prefetches") > 48 + 10, "re-faults: " + stat(half, "uvm.faults"));
        assertTrue(half.simTimePs() > fit.simTimePs() * 1.2, "fit " + fit.simTimePs() + " half " + half.simTimePs());
    }

    @Test
    void longerFaultLatencySlowsDemandPaging() {
        RunResult fast = stream(0.75, "20us", "tree", 1);
        RunResult slow = stream(0.75, "50us", "tree", 1);
        double slowdown = (double) slow.simTimePs() / fast.simTimePs();
        System.out.printf("stream 75%%: 20us %.1f us, 50us %.1f us (x%.2f)%n", fast.simTimePs() / 1e6, slow.simTimePs() / 1e6, slowdown);
        assertTrue(slowdown > 1.2, "slowdown " + slowdown);
    }

    @Test
    void severalFaultHandlersServeBatchesAtOnce() {
        RunResult one = stream(1.0, "20us", "none", 1, 1), four = stream(1.0, "20us", "none", 1, 4);
        // the same pages fault once each, but up to four batches wait out the 20 us handler together
        assertEquals(48, stat(four, "uvm.faults") + stat(four, "uvm.prefetches"));
        assertEquals(0, stat(four, "uvm.evictions"));
        assertTrue(four.simTimePs() < 0.8 * one.simTimePs(), "one handler " + one.simTimePs() + " ps, four " + four.simTimePs() + " ps");
        // and with memory full the batches waiting for frames still get them (no batch is left waiting)
        RunResult half = stream(0.5, "20us", "tree", 2, 4);
        assertTrue(stat(half, "uvm.evictions") > 0);
        assertTrue(stat(half, "uvm.faults") + stat(half, "uvm.prefetches") > 48 + 10, "re-faults: " + stat(half, "uvm.faults"));
    }

    /**
     * uvm.prefetch_evicts: with memory full, a prefetch that only fills free frames stops (every frame holds a page),
     * so each later batch brings its few faulting pages and pays the handler's 20 us for them; a prefetch that evicts
     * goes on bringing the rest of a region, at the price of displacing pages still in use (three arrays streamed
     * side by side in half their footprint: a region's prefetch pushes out the other arrays' current pages).
     */
    @Test
    void prefetchesThatEvictKeepBatchesFullUnderOversubscription() {
        RunResult fit = stream(1.0, "20us", "tree", 1), free = stream(0.5, "20us", "tree", 1), evicting = stream(0.5, "20us", "tree", 1, 1, true);
        // measured (2026-11-30, the tree within each allocation): fit 17 faults; free frames only 85 faults in 56 batches, 72 evictions,
        // 1808 us; evicting 42 in 28, 85, 1312 us
        assertTrue(stat(free, "uvm.fault_batches") > 1.5 * stat(evicting, "uvm.fault_batches"), "fewer 20 us batches when prefetches evict");
        assertTrue(stat(evicting, "uvm.prefetches") > 3 * stat(free, "uvm.prefetches"), "the prefetcher goes on with memory full");
        assertTrue(stat(evicting, "uvm.evictions") > stat(free, "uvm.evictions"), "and its pages displace others");
        assertTrue(evicting.simTimePs() < 0.9 * free.simTimePs(), evicting.simTimePs() + " vs " + free.simTimePs());
        assertTrue(evicting.simTimePs() > 1.2 * fit.simTimePs(), "evictions and re-faults still cost");
        assertTrue(stat(evicting, "uvm.faults") > stat(fit, "uvm.faults"));
    }

    /** The page copies cross the PCIe link: its energy counts their bytes both ways (it read 0 beside 2.6 MB of copies: an energy trial). */
    @Test
    void pageCopiesAreChargedToTheHostLink() {
        RunResult r = stream(0.5, "20us", "tree", 1);
        double h2d = stat(r, "uvm.h2d.bytes"), d2h = stat(r, "uvm.d2h.bytes");
        assertTrue(h2d > 0 && d2h > 0, "the case: copies both ways");
        // etc.yaml's pcie is between [gpu0, cpu]: direction 0 runs gpu0 -> cpu (the evictions), 1 cpu -> gpu0
        assertEquals(d2h, stat(r, "link.pcie.copy_bytes_down"));
        assertEquals(h2d, stat(r, "link.pcie.copy_bytes_up"));
        double pj = TestMachines.machine("etc").links().get(0).pjPerByte();
        assertEquals((stat(r, "link.pcie.wire_bytes_down") + stat(r, "link.pcie.wire_bytes_up") + h2d + d2h) * pj, stat(r, "link.pcie.energy_pj"), 1e-3);
    }

    /**
     * The fault buffer holds fault_buffer faults; the rest are dropped and replayed after a batch. A trial found 4 and 256
     * entries gave the same run to the picosecond, with 63 faults in the 4-entry buffer.
     */
    private static final org.hmsim.api.workload.WorkloadProvider RANDOM = org.hmsim.platform.workloads.file.WorkloadFile.parse("""
            name: random-uvm
            allocations:
              - {name: table, size: 4MB, read_only: true}
            kernels:
              - name: gather
                grid: 64
                block: 256
                loop: 4
                steps:
                  - load: {alloc: table, random: {dist: uniform}}
                  - compute: {cycles: 2, wait: true}
            """, "random-uvm.yaml");

    private static RunResult random(Object... overrides) {
        Object[] base = {"gpu.sms", 8, "uvm.prefetcher", "none"};
        Object[] all = java.util.Arrays.copyOf(base, base.length + overrides.length);
        System.arraycopy(overrides, 0, all, base.length, overrides.length);
        return TestMachines.run(TestMachines.machine("etc", all), RANDOM.create(org.hmsim.api.policy.Params.validate(RANDOM.parameters(), java.util.Map.of()), 1),
                new ClasspathPolicies());
    }

    @Test
    void aFullFaultBufferDropsFaultsUntilTheReplay() {
        java.util.function.IntFunction<RunResult> run = entries -> random("uvm.fault_buffer", entries, "uvm.oversubscription", 1.0);
        RunResult small = run.apply(4), large = run.apply(256);
        assertEquals(0, stat(large, "uvm.fault_buffer_overflows"), "the case: 256 entries hold every fault");
        assertTrue(stat(large, "uvm.fault_buffer_max") > 8, "the case: many faults at once");
        assertTrue(stat(small, "uvm.fault_buffer_max") <= 4, "never more than the buffer holds: " + stat(small, "uvm.fault_buffer_max"));
        assertTrue(stat(small, "uvm.fault_buffer_overflows") > 0 && stat(small, "uvm.fault_replays") > 0);
        assertEquals(64, stat(small, "uvm.footprint_pages"));
        assertEquals(stat(large, "uvm.faults"), stat(small, "uvm.faults"), "every page still faults once (the footprint fits)");
        assertTrue(stat(small, "uvm.fault_batches") > 1.5 * stat(large, "uvm.fault_batches"), "batches of at most 4: " + stat(small, "uvm.fault_batches")
                + " against " + stat(large, "uvm.fault_batches"));
        assertTrue(small.simTimePs() > 1.5 * large.simTimePs(), "and each pays the handler's 20 us");
    }

    /**
     * A fault held for a page whose copy out is under way takes a buffer entry too: with several handlers those faults
     * entered the buffer past its size when their copy ended (a prefetching trial: 23 faults in a 1-entry buffer).
     */
    @Test
    void faultsOnPagesBeingEvictedAreWithinTheBuffer() {
        RunResult r = random("uvm.fault_buffer", 2, "uvm.fault_handlers", 4, "uvm.oversubscription", 0.5);
        assertTrue(stat(r, "uvm.faults_during_eviction") > 0, "the case: faults on pages being copied out");
        assertTrue(stat(r, "uvm.fault_buffer_max") <= 2, "never more than the buffer holds: " + stat(r, "uvm.fault_buffer_max"));
        assertTrue(stat(r, "uvm.fault_buffer_overflows") > 0);
    }
}
