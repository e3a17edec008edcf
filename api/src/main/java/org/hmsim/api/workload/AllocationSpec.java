package org.hmsim.api.workload;

import org.hmsim.api.os.AllocationHint;

/**
 * An allocation a workload makes before its kernels run: a name, a size, a hint, read-only or not, and how well
 * its data compress.
 *
 * @param compressionRatio the ratio the allocation's data compress at under main-memory compression (a 4 KB page
 *        takes 4 KB / ratio; 1 = incompressible), as the program's inputs would give it: what a capacity-compression
 *        policy stores its pages at when it takes declared ratios (seed 002 §5 and Fig 20 use per-application ratios
 *        without listing them). {@code 0} = not declared (the policy's own ratio applies). Since api.workload 1.4.0.
 */
public record AllocationSpec(String name, long bytes, AllocationHint hint, boolean readOnly, double compressionRatio) {
    public AllocationSpec {
        if (bytes <= 0) throw new IllegalArgumentException("allocation " + name + ": size must be > 0");
        if (hint == null) hint = AllocationHint.NONE;
        if (!(compressionRatio == 0 || compressionRatio >= 1) || Double.isInfinite(compressionRatio))
            throw new IllegalArgumentException("allocation " + name + ": compression ratio must be >= 1 (or 0, not declared), was " + compressionRatio);
    }

    /** An allocation whose compressibility is not declared. */
    public AllocationSpec(String name, long bytes, AllocationHint hint, boolean readOnly) { this(name, bytes, hint, readOnly, 0); }

    public AllocationSpec(String name, long bytes) { this(name, bytes, AllocationHint.NONE, false); }

    /** This allocation under another name (a program's allocation in a multiprogrammed run), all else kept. */
    public AllocationSpec renamed(String newName) { return new AllocationSpec(newName, bytes, hint, readOnly, compressionRatio); }
}
