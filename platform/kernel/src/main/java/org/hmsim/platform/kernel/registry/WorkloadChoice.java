package org.hmsim.platform.kernel.registry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;

/** A validated workload of a study: the entry, its full parameters, and those given explicitly. */
public record WorkloadChoice(WorkloadEntry entry, Params params, Map<String, Object> given) {

    public WorkloadChoice {
        given = Collections.unmodifiableMap(new LinkedHashMap<>(given));
    }

    /** Programs run side by side: a mix's count ({@link WorkloadRegistry#mix}), else 1. */
    public int programs() { return entry.provider() instanceof WorkloadRegistry.MixProvider mix ? mix.programs().size() : 1; }

    /** Whether this is a mix, each program confined to its GPU (a mix of one program too: it runs on GPU 0 alone). */
    public boolean isMix() { return entry.provider() instanceof WorkloadRegistry.MixProvider; }

    /** A fresh instance for one simulation. */
    public Workload create(long seed) { return entry.provider().create(params, seed); }

    /** {@code bfs(nodes=4096)}: the name with explicitly given parameters in declaration order. */
    public String label() { return ChoiceLabel.of(entry.name(), entry.parameters(), given, params); }

    /**
     * Base addresses for {@code allocations} as an OS would give them (2 MB apart, from 4 GB up): enough to build a
     * workload's kernels and host phases for counting them, without running it.
     */
    public static long[] nominalBases(java.util.List<org.hmsim.api.workload.AllocationSpec> allocations) {
        long[] bases = new long[allocations.size()];
        long next = 1L << 32;
        for (int i = 0; i < bases.length; i++) {
            bases[i] = next;
            next += (allocations.get(i).bytes() + (1L << 21) - 1) & -(1L << 21);
        }
        return bases;
    }
}
