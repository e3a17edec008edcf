package org.hmsim.baseline.residency;

import java.util.Arrays;
import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;

/**
 * Per-page time stamps over the workload's virtual pages (indexed by vpn minus the first allocation's
 * page, set up lazily once allocations exist): when a page became resident and when it was last touched.
 * The victim is the resident page with the smallest stamp — age order for FIFO, recency for LRU.
 */
final class PageClock {
    private final MemoryManager mm;
    private long base = -1;
    private long[] stamp = new long[0];
    private long clock;

    PageClock(MemoryManager mm) { this.mm = mm; }

    void touch(long vpn) {
        int i = index(vpn);
        if (i >= 0) stamp[i] = ++clock;
    }

    /** The resident page of {@code pool} (per the memory manager) with the oldest stamp, or -1. */
    long oldest(int pool) {
        long best = -1, bestStamp = Long.MAX_VALUE;
        for (int i = 0; i < stamp.length; i++) {
            long s = stamp[i];
            if (s == 0 || s >= bestStamp) continue;
            long vpn = base + i;
            if (mm.poolOf(vpn) != pool) continue;
            best = vpn;
            bestStamp = s;
        }
        if (best >= 0) stamp[(int) (best - base)] = 0; // chosen: forget it until it is resident again
        return best;
    }

    /**
     * The pages it holds, first to be evicted first: the {@code age_order} a residency policy hands its successor at a
     * live swap (as ETC's does), so that a swapped-in policy does not start with an empty clock and evict only the
     * pages that arrived after the swap (found by a review).
     */
    long[] order() {
        // resident pages only: a page the driver evicted without asking this clock (its fallback; under none, every
        // eviction) still has its stamp
        List<long[]> held = new java.util.ArrayList<>();
        for (int i = 0; i < stamp.length; i++) if (stamp[i] != 0 && mm.poolOf(base + i) >= 0) held.add(new long[] {stamp[i], base + i});
        int n = held.size();
        long[][] pairs = held.toArray(new long[0][]);
        Arrays.sort(pairs, (x, y) -> Long.compare(x[0], y[0]));
        long[] vpns = new long[n];
        for (int k = 0; k < n; k++) vpns[k] = pairs[k][1];
        return vpns;
    }

    /** Takes a predecessor's {@link #order()}: its pages stamped in that order, before any of this clock's own. */
    void adopt(long[] order) {
        for (long vpn : order) touch(vpn);
    }

    private int index(long vpn) {
        if (base < 0) init();
        long i = vpn - base;
        if (i < 0) return -1;
        if (i >= stamp.length) stamp = Arrays.copyOf(stamp, (int) Math.max(i + 1, stamp.length * 2L));
        return (int) i;
    }

    private void init() {
        List<Allocation> a = mm.allocations();
        long lo = Long.MAX_VALUE, hi = 0;
        for (Allocation x : a) {
            lo = Math.min(lo, Math.floorDiv(x.baseVa(), mm.pageBytes()));
            hi = Math.max(hi, Math.floorDiv(x.endVa() + mm.pageBytes() - 1, mm.pageBytes()));
        }
        base = a.isEmpty() ? 0 : lo;
        stamp = new long[(int) Math.max(16, hi - base)];
    }
}
