package org.hmsim.api.os;

import java.util.List;

/**
 * The OS memory manager of a simulation as policies see it: the virtual address space with its named
 * allocations, the page table, and physical frames per pool. Pages are mapped on first touch through
 * the placement slot; when the chosen pool is full the page spills to another pool with free frames.
 */
@org.osgi.annotation.versioning.ProviderType
public interface MemoryManager {

    long pageBytes();

    List<Allocation> allocations();

    /** The allocation holding {@code va}, or null. */
    Allocation allocationOf(long va);

    /**
     * Pool holding virtual page {@code vpn}, or -1 if the page is not mapped. On a multi-GPU machine a page interleaved
     * finely over every GPU's memory (the {@code fine} interleave's pages, CODA's FGP pages) answers the number of pools,
     * a pseudo-pool that is no index into {@code pools()}: its 128 B blocks go round the memories.
     */
    int poolOf(long vpn);

    /** Frames still free in a pool. */
    long freeFrames(int pool);

    long totalFrames(int pool);

    /** Pages mapped so far in each pool. */
    long mappedPages(int pool);

    /**
     * Moves a mapped page to another pool: the copy reads the old frame and writes the new one through
     * both pools' controllers (no priority over demand traffic); {@code done} runs when the copy has
     * completed and the page table points to the new frame. Returns false if the page is unmapped,
     * already there, or the target pool is full, and for every page on a machine with a {@code cpu:} section
     * (its TLBs, caches and directory are not shot down) or a {@code uvm:} section (its driver moves the pages): a
     * migration policy refuses such machines at validation with {@code RunFacts.refusePageMigration}.
     * Returns false too once the workload has ended ({@code MigrationPolicy.onWorkloadEnd}), and for a pool index that
     * is not one of the machine's.
     *
     * <p>At the remap (when the copy has completed, just before {@code done}) the platform shoots the page down: every
     * GPU that had translated it drops it from its TLBs and its SMs stall for the machine's {@code gpu.tlb.shootdown}
     * cycles. Stalls that overlap merge (an SM resumes at the latest end, it does not add them up), so a burst of N
     * shootdowns costs less than N stalls; a policy that spaces its copies pays each one in full.
     */
    boolean migrate(long vpn, int toPool, Runnable done);

    /** Whether any GPU has translated this page since it was mapped or last migrated (a sharer bit). */
    boolean translatedByGpu(long vpn);

    /**
     * Maps an unmapped page directly in {@code pool}, without the placement slot, as a host program's
     * initialisation does when the CPU writes its data before the first kernel (seed 000 §2.5: in the
     * migration study "all pages start in CPU memory"). A full pool spills as first touch does. No GPU
     * sharer bit is set. Returns the pool the page went to, or -1 if the page is already mapped or lies
     * in no allocation (or the memory manager does not support it), and for every page once the workload has ended
     * ({@code MigrationPolicy.onWorkloadEnd}). Since api.os 1.1.0.
     */
    default int map(long vpn, int pool) { return -1; }

    /**
     * The bytes of {@code allocation} that one thread block uses exclusively — the runtime-constant
     * stride between consecutive blocks' data that seed 004's compiler analysis (§4.1, Alg. 1) hands
     * to the runtime at cudaMalloc — as the program declared it: {@code > 0} that stride, {@code 0}
     * shared or irregular data, {@code -1} unknown. Since api.os 1.2.0.
     */
    default long ctaStrideBytes(Allocation allocation) { return -1; }

    /**
     * The per-block stride of {@code allocation} measured instead of declared: seed 004's fallback when
     * the compiler cannot simplify the stride (§4.1: the address computation is instrumented and run for
     * some thread blocks before launch; for graphs, μ and σ of the per-block footprint are profiled). The
     * platform runs the address streams of sampled pairs of consecutive blocks of the first kernel that
     * touches the allocation, without timing. Null when the platform cannot profile. Since api.os 1.3.0.
     */
    default CtaStrideProfile profileCtaStride(Allocation allocation) { return null; }

    /**
     * Warps per thread block of the first kernel whose blocks touch {@code allocation} (0: unknown). Seed 004
     * lays an object out by N_blocks_per_GPU, "SMs per GPU × concurrent TBs per SM for the kernel" (§4.4): the
     * occupancy of the kernel that decides the object's placement. Since api.os 1.4.0.
     */
    default int firstKernelWarpsPerCta(Allocation allocation) { return 0; }

    /**
     * The GPU that runs the program which made {@code allocation}, in a multiprogrammed run where each program has a GPU
     * of its own ({@link org.hmsim.api.workload.Multiprogram}); -1 when the program runs on every GPU (an ordinary
     * run). Seed 004 §6.5: with page-grained mapping "memory pages that an application accesses can be allocated to the
     * GPU where the application is executed". Since api.os 1.5.0.
     */
    default int programGpu(Allocation allocation) { return -1; }

    /**
     * The ratio {@code allocation}'s data compress at, as its workload declared it
     * ({@link org.hmsim.api.workload.AllocationSpec#compressionRatio()}): {@code >= 1}, or {@code 0} when the workload
     * does not say. Since api.os 1.6.0.
     */
    default double compressionRatio(Allocation allocation) { return 0; }
}
