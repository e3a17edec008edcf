package org.hmsim.api.workload;

import java.util.List;

/**
 * A program the machine runs: its allocations, then its kernels in order. Instances are created per
 * simulation (from a {@link WorkloadProvider} with a seed), so generators may keep state.
 */
public interface Workload {
    String name();

    List<AllocationSpec> allocations();

    /**
     * The kernels, given the virtual base address the OS assigned to each allocation (in the order of
     * {@link #allocations()}).
     */
    List<Kernel> kernels(long[] baseAddresses);

    /**
     * The host CPU's phases (initialisation, interaction between kernels, post-processing), given the same
     * base addresses as {@link #kernels}. A machine without a CPU side ignores them. Since api.workload 1.1.0.
     */
    default List<HostPhase> hostPhases(long[] baseAddresses) { return List.of(); }
}
