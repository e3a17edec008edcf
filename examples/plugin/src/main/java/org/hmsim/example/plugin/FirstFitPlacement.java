package org.hmsim.example.plugin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.stats.Stats;

/**
 * Places each new page in the fastest pool (by peak bandwidth) that is still below its fill limit of
 * {@code fast_fraction} × capacity; the slowest pool takes everything else. Unlike bandwidth-aware
 * placement it ignores where the traffic will come from: it is the greedy policy a programmer gets by
 * always asking for the fast memory first.
 *
 * <p>One instance serves one simulation thread. {@link #choosePool} runs on every first touch, so it
 * only reads primitive arrays and the memory manager's counters.
 */
final class FirstFitPlacement implements PlacementPolicy {
    private final MemoryManager memory;
    /** Pool indices, fastest first (ties: lower index first, so the order is deterministic). */
    private final int[] order;
    /** Pages pool {@code order[i]} may hold before the next pool is used. */
    private final long[] limit;
    /** Pages this policy sent to each pool (by pool index). */
    private final long[] placed;

    FirstFitPlacement(List<PoolInfo> pools, MemoryManager memory, double fastFraction, Stats stats) {
        if (pools.isEmpty()) throw new IllegalArgumentException("first-fit needs at least one memory pool");
        this.memory = memory;
        List<PoolInfo> byBandwidth = new ArrayList<>(pools);
        byBandwidth.sort(Comparator.comparingDouble(PoolInfo::peakBytesPerSecond).reversed()
                .thenComparingInt(PoolInfo::index));
        order = new int[byBandwidth.size()];
        limit = new long[byBandwidth.size()];
        placed = new long[pools.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = byBandwidth.get(i).index();
            limit[i] = (long) Math.floor(fastFraction * memory.totalFrames(order[i]));
        }
        for (PoolInfo p : pools) {
            int idx = p.index();
            stats.counter("pages." + p.name(), "pages first-fit chose pool " + p.name() + " for (spilled elsewhere if it was full)",
                    () -> placed[idx]);
        }
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        int last = order.length - 1;
        for (int i = 0; i < last; i++) {
            int pool = order[i];
            if (memory.mappedPages(pool) < limit[i]) return count(pool);
        }
        return count(order[last]);
    }

    private int count(int pool) {
        placed[pool]++;
        return pool;
    }
}
