package org.hmsim.api.policy;

/**
 * Demand paging under oversubscription: which resident page to evict when a pool is full, and which
 * pages to bring in besides the faulting one.
 */
public interface ResidencyPolicy extends Policy {

    /** A page became resident in a pool. */
    default void onPageResident(long vpn, int pool) {}

    /**
     * A GPU missed its last-level (L2) TLB on {@code vpn}: called when the page-table walk starts, so also for a page
     * that is not resident yet (the walk then raises its far fault). Not called on TLB hits: where the L2 TLB's reach
     * covers the footprint (the {@code etc} preset: 512 entries of 64 KB, 32 MB) a resident page is walked again only
     * after an eviction shot its translation down, and a recency policy fed by this alone evicts in arrival order.
     * For every access, see {@link #observesReferences()}.
     */
    default void onPageAccessed(long vpn) {}

    /**
     * Whether this policy wants {@link #onPageReferenced} for every GPU memory access (an LRU, LRU-K or CLOCK reference
     * bit of a simulator, where a real driver sees only what {@link #onPageAccessed} gives). Asked once when the policy
     * is created or swapped in; {@code false} (the default) costs the accesses nothing. Since api.policy 1.13.0.
     */
    default boolean observesReferences() { return false; }

    /**
     * A GPU line request to {@code vpn} reached its SM's L1 TLB (once per line request, hit or miss; on a miss the page
     * may not be resident yet, and its far fault follows). Called only when {@link #observesReferences()}; a hot path,
     * millions of times per simulated millisecond: allocate nothing. Since api.policy 1.13.0.
     */
    default void onPageReferenced(long vpn) {}

    /**
     * The page to evict from {@code pool}, or -1 to leave the choice to the driver, which then evicts the oldest page it
     * migrated in. A page that is not resident there is rejected (counted in {@code uvm.victims_rejected}, and noted at the
     * study's end); after four such answers the driver takes its oldest page.
     */
    default long chooseVictim(int pool) { return -1; }

    /**
     * Extra pages to fetch along with the faulting one: writes them to {@code out[0..n)} and returns n, from 0 to
     * {@code out.length}. Pages outside the workload's allocations, or already resident or in flight, are skipped; a
     * count outside that range or a negative page number fails the run, naming the policy.
     */
    default int prefetch(long faultVpn, long[] out) { return 0; }

    /**
     * The driver is about to choose a fault batch's prefetches: the batch's demand pages, {@code faultVpns[0..count)} in
     * the order they entered the fault buffer, before {@link #prefetch} is asked for each of them. A prefetcher can see the
     * whole batch (its spread, its strides) before it answers the first. The array is the driver's: read it here, copy
     * what you keep. Since api.policy 1.23.0.
     */
    default void onFaultBatch(long[] faultVpns, int count) {}

    /**
     * Whether the machine's own prefetcher ({@code uvm.prefetcher}, the tree) proposes nothing while this policy holds the
     * slot, so that a prefetching study compares this policy's pages alone. Asked at each fault batch; {@code false} (the
     * default) keeps the machine's prefetcher, whose pages come first. Since api.policy 1.23.0.
     */
    default boolean replacesMachinePrefetcher() { return false; }
}
