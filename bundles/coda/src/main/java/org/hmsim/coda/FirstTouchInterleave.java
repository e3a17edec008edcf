package org.hmsim.coda;

import org.hmsim.api.os.Allocation;

/**
 * CGP-only + FTA, the ideal first-touch oracle of seed 004 §6.1: every page is held whole by the memory
 * of the first GPU that touches it, at no cost (CPU touches are ignored: a page the host maps first
 * goes page-round-robin, as {@code coarse} would place it).
 */
final class FirstTouchInterleave extends ChannelInterleave {
    private final int[] memoryOfGpu;

    FirstTouchInterleave(long channelGranularity, int[] memoryOfGpu) {
        super(channelGranularity, 128);
        this.memoryOfGpu = memoryOfGpu;
    }

    @Override
    public int pageHome(long vpn, Allocation allocation, int gpu, int memories) {
        if (gpu >= 0 && gpu < memoryOfGpu.length && memoryOfGpu[gpu] >= 0) return memoryOfGpu[gpu];
        return (int) Math.floorMod(vpn, (long) memories);
    }
}
