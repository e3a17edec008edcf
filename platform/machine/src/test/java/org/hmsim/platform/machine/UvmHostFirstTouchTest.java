package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * Unified memory on a machine with a CPU side, the "CPU initialises, GPU computes" pattern: a host phase writes the
 * kernel's data before the first launch. The pages the CPU touches first live in host memory, as CUDA managed memory's
 * first touch on the host places them, and the GPU's first access faults each over: its host frame is freed and the
 * CPU's (dirty) lines of it are written back. Until 2026-11-30 the CPU's touch mapped the page through the placement
 * slot, where the driver did not look, and the page's fault failed every run ("could not be mapped in GPU memory").
 */
class UvmHostFirstTouchTest {
    private static final int ELEMENTS = 1 << 18; // 3 arrays x 1 MB = 48 pages of 64 KB

    /** The stream kernel, with a host phase before it that writes every allocation (one store per 128 B line). */
    private static Workload initialisedOnTheHost() {
        Workload gpu = TestMachines.workload("stream", 1, "elements", ELEMENTS, "ctas", 64, "iterations", 1);
        return new Workload() {
            @Override public String name() { return "stream+init"; }

            @Override public List<AllocationSpec> allocations() { return gpu.allocations(); }

            @Override public List<Kernel> kernels(long[] base) { return gpu.kernels(base); }

            @Override
            public List<HostPhase> hostPhases(long[] base) {
                List<HostPhase.Stream> writes = new ArrayList<>();
                List<AllocationSpec> a = gpu.allocations();
                for (int k = 0; k < base.length; k++) writes.add(new HostPhase.Stream(base[k], a.get(k).bytes(), 128, true));
                return List.of(new HostPhase(0, "init", writes, 0));
            }
        };
    }

    private static RunResult run(double oversubscription, boolean copyThroughMemory) { return run(oversubscription, copyThroughMemory, "local"); }

    private static RunResult run(double oversubscription, boolean copyThroughMemory, String placement) {
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 8, "cpu.cores", 2, "uvm.oversubscription", oversubscription,
                "uvm.copy_through_memory", copyThroughMemory);
        return TestMachines.run(m, initialisedOnTheHost(), new ClasspathPolicies().with(Slot.PLACEMENT, placement, Map.of()));
    }

    private static double stat(RunResult r, String name) { return UnifiedMemoryTest.stat(r, name); }

    @Test
    void pagesTheCpuInitialisedFaultOverFromHostMemory() {
        RunResult r = run(1.0, true);
        assertEquals(1.0, stat(r, "cpu.host_phases"), "the case: the CPU writes the data before the kernel");
        // every page was the CPU's first, and each came over once, by a fault or a prefetch
        assertEquals(48, stat(r, "uvm.from_host"));
        assertEquals(48, stat(r, "uvm.faults") + stat(r, "uvm.prefetches"));
        assertEquals(48 * 65536, stat(r, "uvm.h2d.bytes"));
        assertEquals(0, stat(r, "os.host.mapped_pages"), "every host frame was freed as its page left");
        assertEquals(48, stat(r, "os.gddr.mapped_pages"));
        // the CPU lost each page: the dirty lines its caches still held of the host frame were written back (3 MB were
        // written, in 128 B lines; the caches hold less, measured 2 MB)
        assertEquals(48, stat(r, "coherence.page_flushes"));
        assertTrue(stat(r, "coherence.flush_writebacks") > 0 && stat(r, "coherence.flush_writebacks") <= 3 * (1 << 20) / 128,
                "written back: " + stat(r, "coherence.flush_writebacks"));
    }

    /** Oversubscribed, and with the copies over the link alone (the page is mapped only when it arrives): runs too. */
    @Test
    void oversubscribedAndLinkOnlyCopiesRunToo() {
        RunResult half = run(0.5, true);
        assertEquals(48, stat(half, "uvm.from_host"), "a page leaves host memory once; evicted, it has no host frame");
        assertTrue(stat(half, "uvm.evictions") > 0);
        RunResult linkOnly = run(1.0, false);
        assertEquals(48, stat(linkOnly, "uvm.from_host"));
        assertEquals(0, stat(linkOnly, "os.host.mapped_pages"));
    }

    /**
     * A placement policy that puts CPU touches in GPU memory too (interleave: every other page) does not take the
     * driver's frames: those pages move to host memory, and fault over as the others do.
     */
    @Test
    void aCpuTouchPlacedInGpuMemoryLivesInHostMemory() {
        RunResult r = run(1.0, true, "interleave");
        assertEquals(48, stat(r, "uvm.from_host"));
        assertEquals(48, stat(r, "uvm.faults") + stat(r, "uvm.prefetches"));
        assertEquals(0, stat(r, "os.host.mapped_pages"));
    }
}
