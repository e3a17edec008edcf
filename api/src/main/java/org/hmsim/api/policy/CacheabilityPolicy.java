package org.hmsim.api.policy;

import org.hmsim.api.mem.MemRequest;

/**
 * Whether a GPU access may allocate a line in the L1 ({@code level} 1) or L2 ({@code level} 2). An access
 * that may not allocate still goes through the cache's MSHRs (so it can merge with others) but leaves no
 * line behind.
 */
public interface CacheabilityPolicy extends Policy {
    boolean mayAllocate(int level, MemRequest request);
}
