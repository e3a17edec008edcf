package org.hmsim.coda;

import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.MigrationPolicy;

/**
 * Migration-based first touch (seed 004 §6.1, "7 %"): the first time a GPU misses in its TLB on a page
 * held whole in another GPU's memory, the page moves to the toucher's memory (a page copy over the
 * link, then a shootdown). Pages are considered once: later touches by other GPUs do not move them
 * again. Spread (fine-grained) pages never move. Pair it with interleave {@code coarse}, which stands
 * for the host's initial page-round-robin placement. The paper gives no cost model; the copy's traffic
 * and the shootdown stall are the platform's (docs/mechanisms/bw-aware.md, migration): the toucher's copy engine pulls the
 * page over the direct link in 128 B reads and writes it locally, then the page is remapped and every
 * GPU that had translated it stalls for a shootdown.
 *
 * <p>With {@code host_init} (the default) every page of every allocation is placed before the first
 * launch, as the host's cudaMalloc + initialisation does (§6.1: "the CPU allocates and initialises data
 * before launch" is why the first-touch oracle is impractical), so a page's first GPU touch finds it
 * placed and moves it to the toucher. Without it, pages map at the first GPU touch through the
 * interleave slot and only the next GPU to miss on them in its last-level TLB moves them.
 */
final class MigrateOnTouch implements MigrationPolicy {
    private final MemoryManager memory;
    private final MachineView machine;
    private final int[] gpuOfPool;
    /** Where a GPU's migrated pages go: its memories in turn, as first-touch and CODA place a GPU's pages. */
    private final GpuGeometry.MemoryTurns toPool;
    /** vpns already considered: an open-addressing set (no boxing on the TLB-miss path). */
    private long[] seen = new long[1 << 12];
    private int size;
    private long started, hostMapped;
    private final boolean hostInit;
    private boolean placed;

    MigrateOnTouch(MemoryManager memory, MachineView machine, boolean hostInit) {
        this.memory = memory;
        this.machine = machine;
        this.hostInit = hostInit;
        this.gpuOfPool = new int[machine.pools().size()];
        for (var p : machine.pools()) gpuOfPool[p.index()] = p.node() < machine.gpuCount() ? p.node() : -1;
        this.toPool = new GpuGeometry.MemoryTurns(GpuGeometry.poolsOfGpu(machine));
        java.util.Arrays.fill(seen, -1L);
    }

    @Override
    public void onKernelLaunch(int kernel, Runnable proceed) {
        if (hostInit && !placed) {
            placed = true;
            int pool = machine.localPool(0); // a GPU memory: the interleave slot decides which one
            long page = memory.pageBytes();
            for (Allocation a : memory.allocations())
                for (long vpn = a.baseVa() / page, end = (a.baseVa() + a.bytes() + page - 1) / page; vpn < end; vpn++)
                    if (memory.map(vpn, pool) >= 0) hostMapped++;
        }
        proceed.run();
    }

    @Override
    public void onTlbMiss(int gpu, long vpn) {
        int pool = memory.poolOf(vpn);
        if (pool < 0) return; // not mapped yet (the walk maps it): the next miss decides
        if (!add(vpn)) return;
        if (pool >= gpuOfPool.length || gpuOfPool[pool] < 0 || gpuOfPool[pool] == gpu) return;
        int to = toPool.next(gpu);
        if (to >= 0 && memory.migrate(vpn, to, null)) started++;
    }

    private boolean add(long vpn) {
        if (2 * (size + 1) > seen.length) grow();
        int mask = seen.length - 1;
        int i = (int) (mix(vpn) & mask);
        while (seen[i] != -1L) {
            if (seen[i] == vpn) return false;
            i = (i + 1) & mask;
        }
        seen[i] = vpn;
        size++;
        return true;
    }

    private void grow() {
        long[] old = seen;
        seen = new long[old.length * 2];
        java.util.Arrays.fill(seen, -1L);
        size = 0;
        for (long v : old) if (v != -1L) add(v);
    }

    /**
     * The pages already considered, handed to a successor at a live swap, so that a page is considered once over the run
     * and not again after each swap (a review saw a self-swap raise migrations from 2,423 to 2,979); and where each GPU's
     * turn round its memories stands: restarted at its first memory, a GPU with two memories put its pages after each
     * swap in the first (a self-swap every epoch: 434 against 412 pages in GPU 0's first memory).
     */
    @Override
    public java.util.Map<String, Object> exportState() {
        long[] vpns = new long[size];
        int k = 0;
        for (long v : seen) if (v != -1L) vpns[k++] = v;
        return java.util.Map.of(CONSIDERED, vpns, HOST_PLACED, placed, GpuGeometry.MemoryTurns.STATE_KEY, toPool.state());
    }

    @Override
    public void importState(java.util.Map<String, Object> state) {
        if (state.get(CONSIDERED) instanceof long[] vpns) for (long v : vpns) add(v);
        if (state.get(HOST_PLACED) instanceof Boolean b) placed |= b;
        toPool.restore(state.get(GpuGeometry.MemoryTurns.STATE_KEY));
    }

    static final String CONSIDERED = "considered_pages", HOST_PLACED = "host_placed";

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        return z ^ (z >>> 33);
    }

    long started() { return started; }

    long hostMapped() { return hostMapped; }
}
