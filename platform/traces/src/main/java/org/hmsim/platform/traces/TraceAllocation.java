package org.hmsim.platform.traces;

import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.AllocationSpec;

/**
 * An allocation of a traced program: name, size, hint, read-only, and the virtual base address its
 * addresses were recorded against. A traced run relocates every address inside [base, base + bytes) to
 * the base the simulated OS gives the allocation.
 */
public record TraceAllocation(String name, long bytes, AllocationHint hint, boolean readOnly, long base) {
    public TraceAllocation {
        if (bytes <= 0) throw new IllegalArgumentException("allocation " + name + ": size must be > 0");
        if (hint == null) hint = AllocationHint.NONE;
    }

    public AllocationSpec spec() { return new AllocationSpec(name, bytes, hint, readOnly); }

    public long end() { return base + bytes; }
}
