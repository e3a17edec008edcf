package org.hmsim.platform.memory.os;

import org.hmsim.api.os.Allocation;

/**
 * Takes over the choice of a page's physical frame for some pools: the multi-GPU machine's page-group
 * allocator (seed 004 §4.2), which spreads a page over every GPU's memory or holds it whole in one of
 * them. The memory manager asks it after the placement slot has chosen a pool.
 */
@FunctionalInterface
public interface FrameMapper {
    /**
     * @param pool the pool the placement slot chose (or the host asked for)
     * @param gpu the touching GPU, -1 for the CPU
     * @return the physical address of the frame for {@code vpn}, or -1 to take a frame of {@code pool}
     *         the ordinary way: a pool the mapper does not hold, or one it holds that is full (its
     *         {@link #framesAvailableBelow} then 0), so the page spills to another pool as a full pool's does
     */
    long map(long vpn, Allocation allocation, int pool, int gpu);

    /**
     * The frames of {@code pool} the memory manager may still hand out itself (page migrations into it): those below
     * this frame number. The mapper holds the ones above (page groups are taken from the top of each GPU memory).
     */
    default long framesAvailableBelow(int pool) { return Long.MAX_VALUE; }
}
