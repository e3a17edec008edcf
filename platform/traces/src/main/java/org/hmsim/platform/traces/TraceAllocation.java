package org.hmsim.platform.traces;

import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.AllocationSpec;

/**
 * An allocation of a traced program: name, size, hint, read-only, the virtual base address its
 * addresses were recorded against, and its declared compression ratio (0: not declared). A traced run relocates every address inside [base, base + bytes) to
 * the base the simulated OS gives the allocation.
 */
public record TraceAllocation(String name, long bytes, AllocationHint hint, boolean readOnly, long base, double compressionRatio) {
    public TraceAllocation {
        if (bytes <= 0) throw new IllegalArgumentException("allocation " + name + ": size must be > 0");
        if (hint == null) hint = AllocationHint.NONE;
        if (!(compressionRatio == 0 || compressionRatio >= 1 && compressionRatio <= 64))
            throw new IllegalArgumentException("allocation " + name + ": compression ratio " + compressionRatio + " is out of range [1, 64] (0: not declared)");
    }

    public TraceAllocation(String name, long bytes, AllocationHint hint, boolean readOnly, long base) { this(name, bytes, hint, readOnly, base, 0); }

    public AllocationSpec spec() { return new AllocationSpec(name, bytes, hint, readOnly, compressionRatio); }

    public long end() { return base + bytes; }
}
