package org.hmsim.api.policy;

import java.util.List;
import org.hmsim.api.machine.PoolInfo;

/**
 * What a policy and its parameters may be checked against before a run starts: the machine's pools (by index), its
 * page size and GPU count, whether it demand-pages GPU memory (a {@code uvm:} section) and has a CPU side with a
 * directory (a {@code cpu:} section), and the names of the workload's allocations. A policy whose mechanism the
 * machine lacks (eviction without demand paging, CPU-GPU coherence without CPU caches) refuses it: its runs would be
 * labelled with a policy that did nothing. {@code allocations} is empty where the workload is not at hand (a swap
 * typed into a live shell); a check must then let allocation names pass, and the policy refuses them when it meets
 * the workload. Since api.policy 1.8.0.
 */
public record RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations) {
    public RunFacts {
        pools = List.copyOf(pools);
        allocations = List.copyOf(allocations);
    }

    /** Refuses {@code policy} (as the study names it) on a machine without demand paging: it would act on nothing. */
    public void requireDemandPaging(String policy) {
        if (!demandPaging) throw new IllegalArgumentException(policy + " acts on demand-paged GPU memory, and this machine has no uvm: section: "
                + "its runs would be labelled with a policy that did nothing");
    }

    /** Refuses {@code policy} on a machine without a CPU side (caches and a CPU-GPU directory): it would act on nothing. */
    public void requireCpuSide(String policy) {
        if (!cpuSide) throw new IllegalArgumentException(policy + " acts on CPU-GPU coherence, and this machine has no cpu: section: "
                + "its runs would be labelled with a policy that did nothing");
    }

    /**
     * Refuses {@code policy}, which moves pages between frames, on a machine with a CPU side: the CPU caches and the
     * CPU-GPU directory would keep the old frame's lines, and migrating them is not modelled. Since api.policy 1.9.0.
     */
    public void refusePageMigrationWithCpuSide(String policy) {
        if (cpuSide) throw new IllegalArgumentException(policy + " moves pages between frames, and this machine has a cpu: section: "
                + "page migration with CPU caches and a CPU-GPU directory is not modelled (they would keep the old frame's lines)");
    }

    /** Whether the workload's allocation names are known here. */
    public boolean knowsAllocations() { return !allocations.isEmpty(); }
}
