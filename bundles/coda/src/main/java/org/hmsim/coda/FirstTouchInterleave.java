package org.hmsim.coda;

import org.hmsim.api.os.Allocation;

/**
 * CGP-only + FTA, the ideal first-touch oracle of seed 004 §6.1: every page is held whole by the memory
 * of the first GPU that touches it, at no cost (CPU touches are ignored: a page the host maps first
 * goes page-round-robin, as {@code coarse} would place it). A GPU with several memories takes its pages into
 * them in turn.
 */
final class FirstTouchInterleave extends ChannelInterleave {
    private final GpuGeometry.MemoryTurns turns;

    FirstTouchInterleave(long channelGranularity, int[][] memoriesOfGpu) {
        super(channelGranularity, 128);
        this.turns = new GpuGeometry.MemoryTurns(memoriesOfGpu);
    }

    @Override
    public int pageHome(long vpn, Allocation allocation, int gpu, int memories) {
        int home = turns.nextOf(gpu);
        return home >= 0 ? home : (int) Math.floorMod(vpn, (long) memories);
    }
}
