package org.hmsim.sahc;

import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.stats.Stats;

/**
 * Software-assisted hardware coherence (seed 001 §4). Each page carries a coherence permission:
 * CPU_ONLY, GPU_ONLY, CPU_GPU (and CPU_INIT for SAHC-T). Misses to pages that are not CPU_GPU skip the
 * directory (the request's one-bit "shared page" tag, §4.2); the block directory tracks CPU_GPU pages
 * only.
 *
 * <ul>
 * <li>{@code sahc} (Fig. 5a): first touch gives the page to the toucher; a wrong-owner access faults
 *     ({@code fault_cycles}), the OS flips the owner and counts the fault in the PTE's 2-bit counter;
 *     at {@code promote_after} faults the page becomes CPU_GPU for good (the seed never leaves it).</li>
 * <li>{@code sahc-t} (Fig. 5b): before the first kernel launch the CPU's pages are CPU_INIT; the launch
 *     flushes the CPU caches (and TLBs); afterwards the page walker turns a CPU_INIT page into the
 *     accessor's page without a fault.</li>
 * <li>{@code sahc-a}: SAHC-T plus {@code gpuWorkFinish()}: the GPU caches are flushed (in the directory's view only: it
 *     forgets the GPU's copies, while the GPU L2 keeps its lines) and from then on a
 *     CPU access to a GPU_ONLY page does not fault (and skips the directory).</li>
 * </ul>
 * First touch itself is the ordinary page fault every configuration takes; it is not counted here.
 */
final class SahcPolicy implements CoherencePolicy {
    enum Variant { BASIC, TRANSPARENT, APPARENT }

    private final Variant variant;
    private final long faultCycles;
    private final int promoteAfter;
    private final PageStates pages = new PageStates();
    private boolean launched, gpuWorkFinished;
    private long cpuFaults, gpuFaults, promotions, flips, initConversions, finishedAccesses, firstTouches;

    SahcPolicy(Variant variant, long faultCycles, int promoteAfter, Stats stats) {
        this.variant = variant;
        this.faultCycles = faultCycles;
        this.promoteAfter = promoteAfter;
        stats.counter("ownership_faults", "coherence-permission faults (wrong-owner accesses)", () -> cpuFaults + gpuFaults);
        stats.counter("cpu_faults", "permission faults taken by the CPU", () -> cpuFaults);
        stats.counter("gpu_faults", "permission faults taken by a GPU", () -> gpuFaults);
        stats.counter("owner_flips", "faults that moved a page to the faulting side", () -> flips);
        stats.counter("promotions", "pages promoted to CPU_GPU (actively shared: back to the block directory)", () -> promotions);
        stats.counter("init_conversions", "CPU_INIT pages the page walker gave to their first accessor after the first launch (SAHC-T)", () -> initConversions);
        stats.counter("post_finish_accesses", "CPU accesses to GPU_ONLY pages allowed by gpuWorkFinish (SAHC-A)", () -> finishedAccesses);
        stats.counter("first_touches", "pages given to their first toucher", () -> firstTouches);
        stats.gauge("shared_pages", "pages in CPU_GPU at the end", () -> pages.count(PageStates.CPU_GPU));
    }

    @Override
    public int missPath(int agent, long page) {
        return pages.state(page) == PageStates.CPU_GPU ? PATH_DIRECTORY : PATH_MEMORY;
    }

    @Override
    public long checkAccess(int agent, long page, boolean write) {
        boolean cpu = agent == AGENT_CPU;
        int st = pages.state(page);
        switch (st) {
            case PageStates.CPU_GPU:
                return 0;
            case PageStates.UNTOUCHED:
                firstTouches++;
                pages.set(page, cpu ? (variant != Variant.BASIC && !launched ? PageStates.CPU_INIT : PageStates.CPU_ONLY) : PageStates.GPU_ONLY, 0);
                return 0;
            case PageStates.CPU_INIT:
                if (!launched) {
                    if (!cpu) pages.set(page, PageStates.GPU_ONLY, 0);
                    return 0;
                }
                initConversions++; // the page walker rewrites the PTE for its first accessor (§4.3)
                pages.set(page, cpu ? PageStates.CPU_ONLY : PageStates.GPU_ONLY, 0);
                return 0;
            default:
                break;
        }
        boolean mine = cpu ? st == PageStates.CPU_ONLY : st == PageStates.GPU_ONLY;
        if (mine) return 0;
        if (cpu && gpuWorkFinished && variant == Variant.APPARENT) {
            finishedAccesses++;
            return 0;
        }
        int n = Math.min(pages.faults(page) + 1, 15);
        if (cpu) cpuFaults++;
        else gpuFaults++;
        if (n >= promoteAfter) {
            promotions++;
            pages.set(page, PageStates.CPU_GPU, n);
        } else {
            flips++;
            pages.set(page, cpu ? PageStates.CPU_ONLY : PageStates.GPU_ONLY, n);
        }
        return faultCycles;
    }

    @Override
    public int onRuntimeEvent(int event, int argument) {
        if (variant == Variant.BASIC) return 0;
        switch (event) {
            case EVENT_KERNEL_LAUNCH:
                if (launched) return 0;
                launched = true; // the first-kernel-launched register
                return FLUSH_CPU_CACHES;
            case EVENT_GPU_WORK_FINISH:
                if (variant != Variant.APPARENT) return 0;
                gpuWorkFinished = true;
                return FLUSH_GPU_CACHES;
            case EVENT_PROGRAM_END:
                launched = false;
                gpuWorkFinished = false;
                return 0;
            default:
                return 0;
        }
    }

    int state(long page) { return pages.state(page); }
}
