package org.hmsim.platform.gpu.cache;

/**
 * The caches above an L2 bank, as its miss path sees them: before a victim line leaves the L2 its copies
 * in the L1s that read it are invalidated (seed 003 §M6 step 3, §7: the invalidation is one of the three
 * parts of a miss's latency). {@code sharers} has bit {@code sm & 63} set for every SM that read the line. Returns
 * the dirty sectors the copies held (write-back L1s), which the L2 takes over.
 */
@FunctionalInterface
public interface UpperLevels {
    UpperLevels NONE = (line, sharers) -> 0;

    int invalidate(long line, long sharers);
}
