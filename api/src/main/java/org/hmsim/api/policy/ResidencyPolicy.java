package org.hmsim.api.policy;

/**
 * Demand paging under oversubscription: which resident page to evict when a pool is full, and which
 * pages to bring in besides the faulting one.
 */
public interface ResidencyPolicy extends Policy {

    /** A page became resident in a pool. */
    default void onPageResident(long vpn, int pool) {}

    /** A resident page was accessed (called on TLB misses, not on every access). */
    default void onPageAccessed(long vpn) {}

    /** The page to evict from {@code pool}, or -1 to evict nothing. */
    default long chooseVictim(int pool) { return -1; }

    /** Extra pages to fetch along with the faulting one; {@code out} receives up to its length. */
    default int prefetch(long faultVpn, long[] out) { return 0; }
}
