package org.hmsim.api.policy;

/**
 * Decides which mapped pages move between pools and when; carries its decisions out through
 * {@link org.hmsim.api.os.MemoryManager#migrate}. Every hook defaults to doing nothing.
 */
public interface MigrationPolicy extends Policy {

    /**
     * A GPU missed in its TLB on virtual page {@code vpn} (the thesis's ring buffer input, seed 000 §5.2).
     * Called on the L2 TLB miss, <em>before</em> the page walk: on a page's first touch the page is not
     * mapped yet ({@code MemoryManager.poolOf(vpn)} is -1), and when the TLB covers the footprint this first
     * miss may be the only call a page ever gets, so a policy that skips unmapped pages must remember them
     * and look again later (at {@link #onEpoch}). It carries no time (read {@code context.machine().engine().now()}), no
     * SM and no read/write flag; misses of one GPU that merge into one walk call it once; each GPU's misses call it with
     * that GPU's index.
     */
    default void onTlbMiss(int gpu, long vpn) {}

    /** Called at the end of every statistics epoch. */
    default void onEpoch(long nowPs) {}

    /**
     * The host is about to launch kernel {@code kernel} (0-based, in workload order). The launch happens
     * when the policy runs {@code proceed} — at once (the default) or later, e.g. after a bulk copy of
     * the data to GPU memory (seed 000 §2.1, GDDR+memcpy), which the run's time then includes.
     * {@code proceed} must be run exactly once: a second run is an error naming this policy; a launch never proceeded
     * ends the run at the watchdog, which says the launch is held by the migration policy. Since api.policy 1.1.0.
     */
    default void onKernelLaunch(int kernel, Runnable proceed) { proceed.run(); }

    /**
     * The workload's last kernel (or host phase) has ended. From now on
     * {@link org.hmsim.api.os.MemoryManager#migrate} refuses every page: the program that owned the pages is gone, so
     * nothing is moved for it (copies already in flight complete and call back as usual). A policy with a queue of
     * candidates drops it here, so that it does not count them as refused. Since api.policy 1.17.0.
     */
    default void onWorkloadEnd() {}
}
