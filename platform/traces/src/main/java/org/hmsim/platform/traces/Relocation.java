package org.hmsim.platform.traces;

import java.util.Arrays;
import java.util.List;

/**
 * Moves recorded addresses to the simulated allocations: an address inside recorded allocation i
 * ({@code [base_i, base_i + bytes_i)}) gets {@code newBase_i - base_i} added; an address outside every
 * allocation is left as it is (the simulated OS reports it). The last allocation hit is tried first.
 */
final class Relocation {
    private final long[] start, end, delta;
    private int last;

    private Relocation(long[] start, long[] end, long[] delta) {
        this.start = start;
        this.end = end;
        this.delta = delta;
    }

    /** Null when every allocation keeps its recorded base (nothing to do). */
    static Relocation of(List<TraceAllocation> allocs, long[] newBases) {
        int n = allocs.size();
        Integer[] order = new Integer[n];
        boolean moved = false;
        for (int i = 0; i < n; i++) {
            order[i] = i;
            if (newBases[i] != allocs.get(i).base()) moved = true;
        }
        if (!moved) return null;
        Arrays.sort(order, (a, b) -> Long.compare(allocs.get(a).base(), allocs.get(b).base()));
        long[] s = new long[n], e = new long[n], d = new long[n];
        for (int k = 0; k < n; k++) {
            TraceAllocation a = allocs.get(order[k]);
            s[k] = a.base();
            e[k] = a.end();
            d[k] = newBases[order[k]] - a.base();
        }
        return new Relocation(s, e, d);
    }

    void apply(long[] addresses, int mask) {
        for (int m = mask; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            addresses[l] = move(addresses[l]);
        }
    }

    long move(long a) {
        int i = last;
        if (a >= start[i] && a < end[i]) return a + delta[i];
        int lo = 0, hi = start.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a < start[mid]) hi = mid - 1;
            else if (a >= end[mid]) lo = mid + 1;
            else {
                last = mid;
                return a + delta[mid];
            }
        }
        return a;
    }
}
