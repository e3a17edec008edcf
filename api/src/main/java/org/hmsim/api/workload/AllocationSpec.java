package org.hmsim.api.workload;

import org.hmsim.api.os.AllocationHint;

/** An allocation a workload makes before its kernels run: a name, a size, a hint, read-only or not. */
public record AllocationSpec(String name, long bytes, AllocationHint hint, boolean readOnly) {
    public AllocationSpec {
        if (bytes <= 0) throw new IllegalArgumentException("allocation " + name + ": size must be > 0");
        if (hint == null) hint = AllocationHint.NONE;
    }

    public AllocationSpec(String name, long bytes) { this(name, bytes, AllocationHint.NONE, false); }
}
