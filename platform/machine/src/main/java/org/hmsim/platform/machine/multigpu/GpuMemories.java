package org.hmsim.platform.machine.multigpu;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * The GPU memories of a machine with several of them (seed 004: one HBM per GPU) and the address map
 * that spreads fine-grained pages over them.
 *
 * <p><b>Home encoding.</b> A coarse-grained page (CGP) is an ordinary frame of one GPU memory's pool:
 * its physical address names its home. A fine-grained page (FGP) lives in the <i>spread space</i>, a
 * pseudo-pool whose id is {@link #spreadPool} (one past the real pools): consecutive
 * {@code grain}-byte blocks of the spread space go to consecutive memories (§4.2 takes the GPU from
 * address bits above the page offset's low bits, [11:10] in its example; the 128 B grain is our reading of
 * Table 1, seed notes §7), {@code home = (o / grain) mod N}, and within the home the
 * block lands at {@code local = (o / (grain N)) grain + o mod grain}. So the granularity bit the paper
 * keeps in the PTE, the TLB and the cache line travels here in the physical address itself: an L2
 * write-back finds its home without a translation, as §4.2 requires. A page group (N spread pages,
 * aligned to N pages) occupies the same local frame in every memory, so a group can be switched between
 * the modes only as a whole (Fig. 8) — {@link PageGroupAllocator} keeps that rule.
 */
public final class GpuMemories {
    private final int[] pools;
    private final int[] nodes;
    private final int spreadPool;
    private final long grain;
    private final long pageBytes;

    private GpuMemories(int[] pools, int[] nodes, int spreadPool, long grain, long pageBytes) {
        this.pools = pools;
        this.nodes = nodes;
        this.spreadPool = spreadPool;
        this.grain = grain;
        this.pageBytes = pageBytes;
    }

    /**
     * The GPU memories of {@code pools} (pools attached to GPU nodes, in index order), or null when there
     * are fewer than two: single-memory machines keep the plain one-pool-per-address model.
     */
    public static GpuMemories of(List<PoolInfo> pools, int gpus, long pageBytes, long grain) {
        List<PoolInfo> gpuPools = new ArrayList<>();
        for (PoolInfo p : pools) if (p.node() < gpus) gpuPools.add(p);
        if (gpuPools.size() < 2) return null;
        if (grain < 32 || Long.bitCount(grain) != 1 || grain > pageBytes)
            throw new IllegalArgumentException("interleave spread granularity " + grain + " B must be a power of two in [32, page size " + pageBytes + "]");
        int[] ids = new int[gpuPools.size()];
        int[] nodes = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = gpuPools.get(i).index();
            nodes[i] = gpuPools.get(i).node();
        }
        return new GpuMemories(ids, nodes, pools.size(), grain, pageBytes);
    }

    /**
     * Pages {@code pools} can hold on a machine of {@code gpus} GPUs: with two or more GPU memories, local frame k of
     * every one forms page group k ({@link PageGroupAllocator}), so they hold N x the smallest one's frames (a larger
     * memory's extra frames are never used); other pools hold their frames.
     */
    public static long pageCapacity(List<PoolInfo> pools, int gpus, long pageBytes) {
        long gpuMin = Long.MAX_VALUE, other = 0;
        int gpuPools = 0;
        for (PoolInfo p : pools) {
            if (p.node() < gpus) {
                gpuPools++;
                gpuMin = Math.min(gpuMin, p.capacityBytes() / pageBytes);
            } else other += p.capacityBytes() / pageBytes;
        }
        if (gpuPools == 0) return other;
        return gpuMin * gpuPools + other; // one GPU memory: no page groups, and gpuMin is its frames
    }

    /** Number of GPU memories N. */
    public int count() { return pools.length; }

    /** The pool index of memory {@code m}. */
    public int pool(int m) { return pools[m]; }

    /** The node (GPU) memory {@code m} is attached to. */
    public int node(int m) { return nodes[m]; }

    /** The memory index of {@code pool}, or -1 if it is not a GPU memory. */
    public int memoryOf(int pool) {
        for (int m = 0; m < pools.length; m++) if (pools[m] == pool) return m;
        return -1;
    }

    /** The pseudo-pool id of the spread (fine-grained) space. */
    public int spreadPool() { return spreadPool; }

    public long grain() { return grain; }

    public long pageBytes() { return pageBytes; }

    /** The memory that holds spread-space offset {@code o}. */
    public int home(long o) { return (int) ((o / grain) % pools.length); }

    /** Where spread-space offset {@code o} lies within its home memory. */
    public long local(long o) { return (o / (grain * pools.length)) * grain + (o % grain); }

    /** The physical address in its home pool of spread-space address {@code paddr}. */
    public long resolve(long paddr) {
        long o = PhysicalAddress.offset(paddr);
        return PhysicalAddress.make(pools[home(o)], local(o));
    }
}
