package org.hmsim.baseline.cache;

import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.CacheabilityPolicy;

/** Every GPU access may allocate in the L1 and the L2 (seed 000 §2.1: the hardware-coherent GPU caches all memory). */
public final class CacheAll implements CacheabilityPolicy {
    @Override
    public boolean mayAllocate(int level, MemRequest request) { return true; }
}
