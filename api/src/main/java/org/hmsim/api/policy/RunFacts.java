package org.hmsim.api.policy;

import java.util.List;
import org.hmsim.api.machine.PoolInfo;

/**
 * What a policy's parameters may be checked against before a run starts: the machine's pools (by index), its page
 * size and GPU count, and the names of the workload's allocations. {@code allocations} is empty where the workload is
 * not at hand (a swap typed into a live shell); a check must then let allocation names pass, and the policy refuses
 * them when it meets the workload. Since api.policy 1.8.0.
 */
public record RunFacts(List<PoolInfo> pools, long pageBytes, int gpus, List<String> allocations) {
    public RunFacts {
        pools = List.copyOf(pools);
        allocations = List.copyOf(allocations);
    }

    /** Whether the workload's allocation names are known here. */
    public boolean knowsAllocations() { return !allocations.isEmpty(); }
}
