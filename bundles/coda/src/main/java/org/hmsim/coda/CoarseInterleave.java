package org.hmsim.coda;

import org.hmsim.api.os.Allocation;

/**
 * CGP-only (seed 004 §6, "affinity-unaware"): every page is held whole by one GPU memory, consecutive
 * pages on consecutive memories in circular order: {@code memory = vpn mod N}.
 */
final class CoarseInterleave extends ChannelInterleave {
    CoarseInterleave(long channelGranularity) { super(channelGranularity, 128); }

    @Override
    public int pageHome(long vpn, Allocation allocation, int gpu, int memories) { return (int) Math.floorMod(vpn, (long) memories); }
}
