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

    /**
     * The host is about to launch kernel {@code kernel} (0-based, in workload order). The launch happens
     * when the policy runs {@code proceed} — at once (the default) or later, e.g. after a bulk copy of
     * the data to GPU memory (seed 000 §2.1, GDDR+memcpy), which the run's time then includes.
     * {@code proceed} must be run exactly once. Since api.policy 1.1.0.
     */
    default void onKernelLaunch(int kernel, Runnable proceed) { proceed.run(); }
}
