package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.cache.L2Slice;
import org.junit.jupiter.api.Test;

/**
 * An evicted page's lines must leave the L2 (seed 002 unified memory): the frame receives another page next,
 * and a line of the old page left in a way, in the victim cache or in a fill still in flight would hit for
 * the new one. Checked on the L2's tags themselves, not on a statistic: at the moment a page that faulted
 * arrives in a frame that held an evicted page, no L2 slice may hold a line of that frame.
 */
class UvmEvictionCachesTest {
    private static int held(Machine m, long base, long bytes) {
        int n = 0;
        for (Gpu g : m.gpuList()) for (L2Slice s : g.l2Slices()) n += s.linesHeld(base, bytes);
        return n;
    }

    /** Streaming (age order evicts pages no longer in use) and GESUMMV (pages still being read are evicted). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"stream", "etc-gesummv"})
    void evictedFramesHoldNoL2LinesWhenReused(String workload) {
        MachineConfig cfg = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.prefetcher", "none");
        org.hmsim.api.workload.Workload w = workload.equals("stream")
                ? TestMachines.workload("stream", 1, "elements", 1 << 18, "ctas", 64, "iterations", 2)
                : TestMachines.workload(workload, 1, "rows", 512, "cols", 512);
        RunSpec spec = new RunSpec("t", cfg, w, new ClasspathPolicies(), 1, 1_000_000, 0);
        Machine m = new Machine(cfg, spec.policies(), spec.seed(), spec.runId());
        long page = m.uvm.pageBytes();
        Set<Long> evictedFrames = new HashSet<>();
        int[] reusedChecked = {0}, heldAtReuse = {0};
        long[] evictedWithLines = {0};
        m.uvm.addListener(new UnifiedMemory.Listener() {
            @Override public void onEviction(long vpn, boolean proactive) {
                long f = m.uvm.frameBase(vpn);
                evictedFrames.add(f);
                // lines of a page being evicted that the L2 still held when the drop ran: the ones that matter
                if (held(m, f, page) > 0) evictedWithLines[0]++;
            }

            @Override public void onFaultResolved(int sm, long vpn) {
                long f = m.uvm.frameBase(vpn);
                if (!evictedFrames.contains(f)) return;
                reusedChecked[0]++;
                heldAtReuse[0] += held(m, f, page);
            }
        });
        RunResult r = Simulation.run(m, spec);
        assertTrue(r.stats().get("uvm.evictions") > 10, "the run must evict");
        assertTrue(r.stats().get("uvm.l2_lines_dropped") > 0, "evicted pages had lines in the L2");
        assertTrue(reusedChecked[0] > 10, "frames of evicted pages were reused: " + reusedChecked[0]);
        System.out.printf("%s: evictions %.0f, frames reused %d, evictions with lines in flight at the drop %d%n", workload,
                r.stats().get("uvm.evictions"), reusedChecked[0], evictedWithLines[0]);
        assertEquals(0, heldAtReuse[0], "L2 lines of an evicted page still in its frame when the next page arrives");
    }

    /**
     * A frame takes its next page only once the evicted page's copy has left it, and a page that faults again while its
     * own copy out is under way is fetched only after that copy (the host's data is not complete before). With four
     * handlers and prefetches that evict, copies in and out overlap: a review found the next page mapped into a frame
     * still being copied out, and the copy's end dropping that live page's lines (LUD: 39,557 lines).
     */
    @Test
    void aFrameTakesNoPageWhileItsEvictionIsCopiedOut() {
        MachineConfig cfg = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.fault_handlers", 4, "uvm.prefetch_evicts", true);
        RunSpec spec = new RunSpec("t", cfg, TestMachines.workload("etc-lud", 1), new ClasspathPolicies(), 1, 1_000_000, 0);
        Machine m = new Machine(cfg, spec.policies(), spec.seed(), spec.runId());
        java.util.Map<Long, Long> evictedFrom = new java.util.HashMap<>(); // frame -> the page last evicted from it
        int[] arrivals = {0}, intoFramesStillCopiedOut = {0};
        m.uvm.addListener(new UnifiedMemory.Listener() {
            @Override public void onEviction(long vpn, boolean proactive) { evictedFrom.put(m.uvm.frameBase(vpn), vpn); }

            @Override public void onFaultResolved(int sm, long vpn) {
                arrivals[0]++;
                Long before = evictedFrom.get(m.uvm.frameBase(vpn));
                if (before != null && before != vpn && m.uvm.evicting(before)) intoFramesStillCopiedOut[0]++;
            }
        });
        RunResult r = Simulation.run(m, spec);
        System.out.printf("lud 50%%, 4 handlers, prefetches that evict: evictions %.0f, arrivals %d, faults during an eviction %.0f%n",
                r.stats().get("uvm.evictions"), arrivals[0], r.stats().get("uvm.faults_during_eviction"));
        assertTrue(r.stats().get("uvm.evictions") > 100 && arrivals[0] > 100, "copies in and out overlap");
        assertEquals(0, intoFramesStillCopiedOut[0], "pages mapped into a frame whose eviction copy was still under way");
    }

    /**
     * A page that faults while its own eviction is copied out is fetched once that copy is done: its fault is counted,
     * served and resolved once, and no frame is lost or freed twice (GESUMMV without a prefetcher re-touches pages just
     * chosen as victims; a review counted 17 such faults).
     */
    @Test
    void aPageFaultingDuringItsEvictionIsServedOnceAfterIt() {
        MachineConfig cfg = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.prefetcher", "none");
        RunSpec spec = new RunSpec("t", cfg, TestMachines.workload("etc-gesummv", 1, "rows", 512, "cols", 512), new ClasspathPolicies(), 1, 1_000_000, 0);
        Machine m = new Machine(cfg, spec.policies(), spec.seed(), spec.runId());
        int[] raised = {0}, resolved = {0};
        m.uvm.addListener(new UnifiedMemory.Listener() {
            @Override public void onFault(int sm, long vpn) { raised[0]++; }

            @Override public void onFaultResolved(int sm, long vpn) { resolved[0]++; }
        });
        RunResult r = Simulation.run(m, spec);
        assertTrue(r.stats().get("uvm.faults_during_eviction") > 0, "pages faulted during their own eviction");
        assertEquals(raised[0], resolved[0], "every fault raised is resolved once");
        assertEquals(r.stats().get("uvm.faults"), (double) raised[0]);
        assertEquals((double) m.os().totalFrames(0), r.stats().get("os.gddr.mapped_pages") + r.stats().get("os.gddr.free_frames"),
                "every frame is either mapped or free at the end");
    }
}
