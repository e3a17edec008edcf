package org.hmsim.api.workload;

/**
 * Implemented by a {@link Workload} that knows, per allocation, how many bytes one thread block uses
 * exclusively: what seed 004's compiler pass (§4.1, runtime-constant stride) derives from the kernel's
 * index expressions. The runner hands it to the memory manager at allocation, where placement policies
 * read it ({@link org.hmsim.api.os.MemoryManager#ctaStrideBytes}). Since api.workload 1.2.0.
 */
public interface CtaStrideHints {
    /**
     * @param allocation index in {@link Workload#allocations()}
     * @return the per-block stride in bytes ({@code > 0}), {@code 0} for shared or irregular data,
     *         {@code -1} unknown
     */
    long ctaStrideBytes(int allocation);
}
