package org.hmsim.api.policy;

/**
 * Limits how many SMs, thread blocks (CTAs) and warps issue, through {@link org.hmsim.api.machine.CoreView}: an SM's
 * issue gate ({@code setIssueEnabled}), its thread-block cap ({@code setCtaLimit}: blocks it may hold, 0 takes it out
 * of dispatch) and its warp cap ({@code setWarpLimit}: how many of its warps may issue).
 */
public interface ThrottlingPolicy extends Policy {
    /**
     * The policy takes effect: once at time 0, before the first kernel launches, and at {@code nowPs} right after a live
     * swap installs it (the platform has just re-enabled every SM and reset every cap to the hardware's). At a swap the
     * order is: the old policy's {@code exportState}, this one's {@code importState}, the old one's {@code close()}, the
     * reset, then this {@code begin}: limits taken over in {@code importState} are set here, and stay. A policy that sets
     * its limits once sets them here. Since api.policy 1.19.0.
     */
    default void begin(long nowPs) {}

    /** Called at each statistics epoch. */
    default void onEpoch(long nowPs) {}

    /**
     * Kernel launch {@code kernel} (counted from 0, repeats included) is about to dispatch its first thread block: a policy
     * that samples on timers of its own may start them here. Since api.policy 1.19.0.
     */
    default void onKernelLaunch(int kernel, long nowPs) {}

    /**
     * The workload has ended: stop any timer of your own. (A timer that re-arms itself for ever is cut 10 ms of simulated
     * time after the end, and stats.json's {@code engine.events_left_at_end} says so.) Since api.policy 1.19.0.
     */
    default void onWorkloadEnd(long nowPs) {}
}
