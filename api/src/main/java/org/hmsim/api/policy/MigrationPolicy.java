package org.hmsim.api.policy;

/**
 * Decides which mapped pages move between pools and when; carries its decisions out through
 * {@link org.hmsim.api.os.MemoryManager#migrate}. Every hook defaults to doing nothing.
 */
public interface MigrationPolicy extends Policy {

    /** A GPU missed in its TLB on virtual page {@code vpn} (the thesis's ring buffer input, seed 000 §5.2). */
    default void onTlbMiss(int gpu, long vpn) {}

    /** Called at the end of every statistics epoch. */
    default void onEpoch(long nowPs) {}
}
