package org.hmsim.api.policy;

/**
 * Implemented by a policy that needs a profiling pass (seed 000 §2.3 oracle placement, §2.4 profiled
 * hints). When any policy of a simulation implements it and {@link #wantsProfile()} is true, the
 * platform first runs the same machine, workload and seed once with per-page DRAM access counting on
 * (the counting costs nothing in runs that do not ask for it), then hands the result to this policy
 * before the measured run starts. In the profiling pass the policy's own instance gets no profile and
 * must behave sensibly without one. Since api.policy 1.1.0.
 */
public interface ProfiledPolicy extends Policy {

    /** Whether this instance (with its parameters) needs the profiling pass. */
    default boolean wantsProfile() { return true; }

    /** The profile of the profiling pass; called once, before the measured run's first kernel. */
    void useProfile(AccessProfile profile);
}
