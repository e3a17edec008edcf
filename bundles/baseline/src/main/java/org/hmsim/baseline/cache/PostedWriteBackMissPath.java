package org.hmsim.baseline.cache;

import org.hmsim.api.policy.L2MissPathPolicy;

/**
 * GPGPU-Sim's L2 miss path: the victim's write-back is posted and its way taken by the missing line at once, so
 * the fetch waits neither for the write-back's acknowledgement nor for L1 invalidations. The faithful baseline for
 * machines of the GPGPU-Sim-based seeds (000, 002) and MacSim's (004); {@code conventional} is seed 003's Multi2Sim path.
 */
public final class PostedWriteBackMissPath implements L2MissPathPolicy {
    @Override
    public boolean postsWriteBacks() { return true; }
}
