package org.hmsim.memsched;

import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.DramSchedulerPolicy;

/**
 * FR-FCFS with the CPU's requests first: the CPU's few outstanding misses are on its cores' critical path, while a
 * GPU hides latency behind its warps (the premise of CPU-prioritising controllers in CPU-GPU systems; Ausavarungnirun
 * et al., ISCA 2012, §2.3, find such static priority starves the GPU when the CPU is memory-intensive). {@code strict}:
 * a CPU miss goes before a GPU row hit (closing the GPU's row); otherwise row hits go first and the CPU wins among the
 * rest.
 */
final class CpuFirst implements DramSchedulerPolicy {
    private final boolean strict;

    CpuFirst(boolean strict) { this.strict = strict; }

    @Override public State forChannel(int pool, int channel, int banks) { return (r, bank, rowHit) -> rank(r, rowHit, strict); }

    static long rank(MemRequest r, boolean rowHit, boolean strict) {
        return strict ? (Source.cpu(r) ? 0 : 2) + (rowHit ? 0 : 1) : (rowHit ? 0 : 2) + (Source.cpu(r) ? 0 : 1);
    }
}
