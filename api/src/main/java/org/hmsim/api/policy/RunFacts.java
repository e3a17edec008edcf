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
 * the workload. {@code programs} is how many programs run side by side, one per GPU ({@link
 * org.hmsim.api.workload.Multiprogram}; 1 for an ordinary run, since api.policy 1.11.0). Since api.policy 1.8.0.
 */
public record RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations,
                       int programs) {
    public RunFacts {
        pools = List.copyOf(pools);
        allocations = List.copyOf(allocations);
        if (programs < 1) throw new IllegalArgumentException("a run has at least one program, got " + programs);
    }

    /** One program (an ordinary run), as before api.policy 1.11.0. */
    public RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations) {
        this(pools, pageBytes, gpus, demandPaging, cpuSide, allocations, 1);
    }

    /**
     * Refuses {@code policy} in a multiprogrammed mix ({@code programs > 1}: program p alone on GPU p, seed 004 §6.5), whose
     * rule assumes one program over the whole machine ({@code why}). Since api.policy 1.11.0.
     */
    public void refuseMix(String policy, String why) {
        if (programs > 1) throw new IllegalArgumentException(policy + " " + why + ", and this run is a mix of " + programs
                + " programs, each alone on its GPU: a mix takes policies that act per program or per GPU");
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
