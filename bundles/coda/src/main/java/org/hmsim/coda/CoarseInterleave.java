package org.hmsim.coda;

import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;

/**
 * CGP-only (seed 004 §6, "affinity-unaware"): every page is held whole by one GPU memory, consecutive
 * pages on consecutive memories in circular order: {@code memory = vpn mod N}.
 *
 * <p>In a multiprogrammed mix (§6.5, Fig. 13) a program has a GPU of its own
 * ({@link MemoryManager#programGpu}), and its pages go whole to that GPU's memory ("memory pages that an application
 * accesses can be allocated to the GPU where the application is executed"); a GPU with several memories takes them in
 * turn.
 */
final class CoarseInterleave extends ChannelInterleave {
    private final MemoryManager memory;
    private final GpuGeometry.MemoryTurns turns;

    CoarseInterleave(long channelGranularity, MemoryManager memory, int[][] memoriesOfGpu) {
        super(channelGranularity, 128);
        this.memory = memory;
        this.turns = new GpuGeometry.MemoryTurns(memoriesOfGpu);
    }

    @Override
    public java.util.Map<String, Object> exportState() { return java.util.Map.of(GpuGeometry.MemoryTurns.STATE_KEY, turns.state()); }

    @Override
    public void importState(java.util.Map<String, Object> state) { turns.restore(state.get(GpuGeometry.MemoryTurns.STATE_KEY)); }

    @Override
    public int pageHome(long vpn, Allocation allocation, int gpu, int memories) {
        int home = ProgramGpu.memoryOf(memory, allocation, turns);
        return home >= 0 ? home : (int) Math.floorMod(vpn, (long) memories);
    }
}
