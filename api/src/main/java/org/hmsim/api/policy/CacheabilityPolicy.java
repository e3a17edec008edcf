package org.hmsim.api.policy;

import org.hmsim.api.mem.MemRequest;

/**
 * Whether a GPU access may allocate a line in the L1 ({@code level} 1) or L2 ({@code level} 2). An access
 * that may not allocate still goes through the cache's MSHRs (so it can merge with others) but leaves no
 * line behind.
 *
 * <p>Since api.policy 1.4.0 the slot also decides the hardware of selective caching (seed 000 Ch. 6), through
 * default methods that a cache-everything policy ignores: whether a non-allocating access may coalesce in an
 * MSHR, the link transfer unit of non-allocating reads, the CPU-side client cache, the permission faults of
 * promiscuous read-only caching, and CPU accesses to GPU-homed lines (the remote directory's input).
 */
public interface CacheabilityPolicy extends Policy {
    boolean mayAllocate(int level, MemRequest request);

    /**
     * Whether a read that may not allocate at {@code level} may merge into a pending MSHR of its line there
     * (cacheless request coalescing, seed 000 §6.2.2.1). False: it takes an MSHR of its own that nothing merges
     * into (naive selective caching relies on the lane coalescer only). Since api.policy 1.4.0.
     */
    default boolean mayCoalesce(int level, MemRequest request) { return true; }

    /**
     * Whether a read that may not allocate fetches (and the link carries) only its 32 B sectors (variable-size
     * transfers, seed 000 §6.2.2.3), or the whole line (false: line-sized transfers, the data not asked for is
     * discarded). Since api.policy 1.4.0.
     */
    default boolean subBlockTransfers(MemRequest request) { return true; }

    /**
     * Capacity of the CPU-side GPU client cache at the memory controller of the CPU's pools (seed 000 §6.2.2.2);
     * 0 = none. It allocates only for GPU reads, 128 B lines, write-through, no write-allocate. Read when the
     * cache is idle (assembly, or a swap), not per access. Since api.policy 1.4.0.
     */
    default long clientCacheBytes() { return 0; }

    /** Associativity of the client cache. Since api.policy 1.4.0. */
    default int clientCacheWays() { return 8; }

    /** Access latency of the client cache in GPU cycles, on top of the link (seed 000 Table 6.3: 200 = 100 + 100). Since api.policy 1.4.0. */
    default int clientCacheLatencyCycles() { return 100; }

    /**
     * A GPU store to {@code store.paddr}: how long it must wait before it may proceed, ps (a permission fault of
     * promiscuous read-only caching, seed 000 §6.2.3; 0 = no fault). Called once per store line request at the L1.
     * Since api.policy 1.4.0.
     */
    default long storeFaultPs(MemRequest store) { return 0; }

    /** Permission faults an SM may have pending; one more blocks its load/store unit (seed 000 Table 6.3: 16). Since api.policy 1.4.0. */
    default int maxPendingFaultsPerSm() { return 16; }

    /**
     * A CPU request (after the CPU caches) reached memory of either home: the remote directory of selective
     * caching records a GPU-homed line the CPU reads (seed 000 §6.2.1), read-only caching takes a CPU write to a
     * read-only page as a permission fault (§6.2.3). Since api.policy 1.4.0.
     */
    default void onCpuAccess(MemRequest request) {}

    /** Kernel {@code kernel} (0-based) is launching: read-only caching marks pages read-only again (seed 000 §6.3). Since api.policy 1.4.0. */
    default void onKernelLaunch(int kernel) {}
}
