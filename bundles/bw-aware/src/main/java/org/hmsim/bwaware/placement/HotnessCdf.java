package org.hmsim.bwaware.placement;

import java.util.Arrays;
import org.hmsim.api.policy.AccessProfile;

/**
 * The post-cache per-page access CDF of seed 000 Fig. 4.5 (C7): pages sorted hot to cold, the share of
 * all profiled DRAM accesses carried by the hottest fraction of the footprint's pages. The thesis's
 * skewed workloads (bfs, xsbench) put more than 60 % of the traffic in 10 % of the pages; a near-linear
 * CDF (needle) is what BW-AWARE's random spread already handles well.
 */
public final class HotnessCdf {
    private final long[] sorted; // accesses per footprint page, descending
    private final long total;

    public HotnessCdf(AccessProfile profile) {
        int n = 0;
        for (int a = 0; a < profile.allocations().size(); a++) n += profile.pageAccesses(a).length;
        long[] all = new long[n];
        int k = 0;
        for (int a = 0; a < profile.allocations().size(); a++) for (long c : profile.pageAccesses(a)) all[k++] = c;
        Arrays.sort(all);
        sorted = new long[n];
        long t = 0;
        for (int i = 0; i < n; i++) t += sorted[i] = all[n - 1 - i];
        total = t;
    }

    /** Share (0..1) of the DRAM accesses carried by the hottest {@code pageFraction} (0..1) of the pages. */
    public double shareOfHottest(double pageFraction) {
        if (total == 0) return 0;
        int pages = (int) Math.round(pageFraction * sorted.length);
        long s = 0;
        for (int i = 0; i < pages && i < sorted.length; i++) s += sorted[i];
        return (double) s / total;
    }

    public int pages() { return sorted.length; }

    public long totalAccesses() { return total; }
}
