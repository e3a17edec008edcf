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
 * org.hmsim.api.workload.Multiprogram}; 1 for an ordinary run, since api.policy 1.11.0); {@code mix} whether the run
 * is a mix, each program confined to its GPU (a mix of one program is one: the program alone on GPU 0, the reference
 * its co-run slowdown is measured against; since api.policy 1.12.0). {@code smsPerGpu}, {@code ctasPerSm} and
 * {@code warpsPerSm} are each GPU's SMs and each SM's thread-block and warp slots, 0 where unknown (a check then lets a
 * limit pass; since api.policy 1.19.0). {@code lineBytes} is the GPU L2's line, the size of the requests memory sees (0
 * where unknown; since api.policy 1.25.0). Since api.policy 1.8.0.
 */
public record RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations,
                       int programs, boolean mix, int smsPerGpu, int ctasPerSm, int warpsPerSm, int lineBytes) {
    public RunFacts {
        pools = List.copyOf(pools);
        allocations = List.copyOf(allocations);
        if (programs < 1) throw new IllegalArgumentException("a run has at least one program, got " + programs);
        if (programs > 1 && !mix) throw new IllegalArgumentException("programs run side by side only in a mix, got " + programs);
        if (smsPerGpu < 0 || ctasPerSm < 0 || warpsPerSm < 0)
            throw new IllegalArgumentException("SMs and their slots are counts (0: unknown), got " + smsPerGpu + " / " + ctasPerSm + " / " + warpsPerSm);
        if (lineBytes < 0) throw new IllegalArgumentException("a line is some bytes (0: unknown), got " + lineBytes);
    }

    /** The line unknown (api.policy 1.19.0's constructor). */
    public RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations,
                    int programs, boolean mix, int smsPerGpu, int ctasPerSm, int warpsPerSm) {
        this(pools, pageBytes, gpus, demandPaging, cpuSide, allocations, programs, mix, smsPerGpu, ctasPerSm, warpsPerSm, 0);
    }

    /**
     * Refuses an interleave's {@code granularity} (bytes on one channel, or GPU, before the next: {@code targets}) under the line: memory
     * is sent whole lines (and a line's sectors at its address), each served by the channel of its first byte, so
     * channels between would get nothing (a DRAM trial's 32 B on four channels used one). Since api.policy 1.25.0.
     */
    public void refuseUnderLine(String parameter, long granularity, String targets) {
        if (lineBytes > 0 && granularity < lineBytes)
            throw new IllegalArgumentException(parameter + " " + granularity + " B is under the L2 line (" + lineBytes + " B): a line's request goes"
                    + " whole to the one of its first byte, so " + (lineBytes / granularity - 1) + " in " + (lineBytes / granularity) + " " + targets
                    + " would get nothing; give at least " + lineBytes);
    }

    /** A run whose SM geometry is not known here (api.policy 1.12.0's constructor). */
    public RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations,
                    int programs, boolean mix) {
        this(pools, pageBytes, gpus, demandPaging, cpuSide, allocations, programs, mix, 0, 0, 0);
    }

    /** A run of {@code programs} programs, a mix where there are more than one (api.policy 1.11.0's constructor). */
    public RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations,
                    int programs) {
        this(pools, pageBytes, gpus, demandPaging, cpuSide, allocations, programs, programs > 1);
    }

    /** One program (an ordinary run), as before api.policy 1.11.0. */
    public RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, boolean demandPaging, boolean cpuSide, List<String> allocations) {
        this(pools, pageBytes, gpus, demandPaging, cpuSide, allocations, 1, false);
    }

    /**
     * Refuses {@code policy} in a multiprogrammed mix ({@code mix}: program p alone on GPU p, seed 004 §6.5), whose
     * rule assumes one program over the whole machine ({@code why}). Since api.policy 1.11.0; a mix of one program
     * too since 1.12.0 (it passed and failed at its first launch).
     */
    public void refuseMix(String policy, String why) {
        if (mix) throw new IllegalArgumentException(policy + " " + why + ", and this run is a mix of " + programs
                + (programs == 1 ? " program, confined to GPU 0" : " programs, each alone on its GPU") + ": a mix takes policies that act per program or per GPU");
    }

    /**
     * Refuses a placement {@code policy} (as the study names it) on a machine whose every pool is one of several GPU
     * memories: the interleave slot places every page there (seed 004's page groups, {@link InterleavePolicy#pageHome}),
     * whatever pool a placement chose, so the run would be labelled with a policy that did nothing. Since api.policy 1.12.0;
     * since 1.17.1 also on a machine of one pool (nothing to choose: ratio's fast_percent 0 and 100 gave the same run) and
     * on one with demand paging (its driver maps every page into GPU memory).
     */
    public void requirePoolChoice(String policy) {
        if (pools.size() == 1)
            throw new IllegalArgumentException(policy + " chooses the pool of a page, and this machine has one pool (" + pools.get(0).name()
                    + "): it would act on nothing");
        long cpuPools = pools.stream().filter(p -> p.node() >= gpus).count();
        // with a CPU side the placement slot places the CPU's first touches in the CPU's pools (a trial: the message said
        // it acted on nothing there): a choice only where there are two of them
        if (demandPaging && !(cpuSide && cpuPools >= 2))
            throw new IllegalArgumentException(policy + " chooses the pool of a page, and this machine has a uvm: section, whose driver maps "
                    + "every page the GPU touches into GPU memory" + (cpuSide ? ", and the CPU's first touches go to its one pool" : "")
                    + ": it would act on nothing");
        long gpuMemories = pools.stream().filter(p -> p.node() < gpus).count();
        if (gpuMemories >= 2 && gpuMemories == pools.size())
            throw new IllegalArgumentException(policy + " chooses the pool of a page, and every pool of this machine is one of its " + gpuMemories
                    + " GPU memories, whose pages the interleave slot places (fine, coarse, coda…): it would act on nothing");
    }

    /**
     * Refuses {@code policy} on a machine without a pool attached to the CPU ({@code node == gpus}): a policy about
     * CPU-homed data would act on nothing. Since api.policy 1.12.0.
     */
    public void requireCpuMemory(String policy) {
        if (pools.stream().noneMatch(p -> p.node() >= gpus))
            throw new IllegalArgumentException(policy + " acts on CPU-homed data, and this machine has no pool attached to the CPU: it would act on nothing");
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

    /**
     * Refuses {@code policy}, which moves or maps pages itself, on a machine whose pages it cannot move: one with a CPU
     * side (as {@link #refusePageMigrationWithCpuSide}) or with demand paging, whose driver owns the GPU's frames (every
     * copy would be refused, and a page mapped ahead of the driver could not be faulted in: such runs failed mid-way).
     * Since api.policy 1.16.0; since 1.20.0 also a machine with one pool, where there is nowhere to move a page (a
     * researcher's threshold migration ran there with 0 migrations, labelled as if it acted).
     */
    public void refusePageMigration(String policy) {
        if (pools.size() == 1)
            throw new IllegalArgumentException(policy + " moves pages between pools, and this machine has one pool (" + pools.get(0).name()
                    + "): it would act on nothing");
        refusePageMigrationWithCpuSide(policy);
        if (demandPaging) throw new IllegalArgumentException(policy + " moves pages between pools, and this machine has a uvm: section: "
                + "its demand-paging driver owns the GPU's frames (use a residency, throttling or compression policy there)");
    }

    /**
     * A note ({@link PolicyProvider#note}) for a cap {@code value} (the parameter {@code param}) at or above the machine's
     * {@code hardware} ({@code what}, e.g. "warps per SM"): it caps nothing, so its runs repeat the uncapped ones; null
     * where it caps something or {@code hardware} is 0 (unknown). A note, not a refusal: a study crossing machines may give
     * a cap that binds on one and not on another (validation refuses a choice every one of whose runs is noted). Since
     * api.policy 1.19.0.
     */
    public static String capsNothing(String param, long value, int hardware, String what) {
        return hardware > 0 && value >= hardware ? param + " " + value + " is at or above this machine's " + hardware + " " + what
                + ": it caps nothing" : null;
    }

    /** Whether the workload's allocation names are known here. */
    public boolean knowsAllocations() { return !allocations.isEmpty(); }
}
