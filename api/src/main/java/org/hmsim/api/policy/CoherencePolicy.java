package org.hmsim.api.policy;

import org.hmsim.api.mem.MemRequest;

/**
 * Coherence actions between CPU and GPU caches. The baseline GPU-only machine has no coherence traffic
 * ({@code none}). The hook is consulted when a request misses the last level of a GPU or CPU cache
 * hierarchy and returns the latency the coherence protocol adds before memory is accessed.
 */
public interface CoherencePolicy extends Policy {
    /** Extra delay (ps) before {@code request} may proceed to memory; 0 for none. */
    default long onLastLevelMiss(MemRequest request) { return 0; }
}
