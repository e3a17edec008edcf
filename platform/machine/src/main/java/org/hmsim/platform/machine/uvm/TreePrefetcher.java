package org.hmsim.platform.machine.uvm;

/**
 * The baseline page prefetcher (seed 002 §2.4 applies "the state-of-the-art hardware page prefetcher" [102]
 * in every configuration but does not describe it; we use the tree-based neighbourhood prefetcher of the
 * CUDA unified-memory driver, as described by Ganguly et al., ISCA'19). Each aligned region of
 * {@code regionPages} pages (2 MB of 64 KB pages) is a full binary tree whose leaves are pages. On a fault
 * the driver walks from the faulting leaf to the root; at the highest node whose subtree would be more
 * than half valid (resident or already coming) counting the faulting page, every missing page of that
 * subtree is prefetched. A streaming access pattern so grows its fetch granularity 64 KB, 128 KB, … up to
 * 2 MB; scattered faults fetch one page.
 */
final class TreePrefetcher {
    /**
     * Whether a page (by vpn) counts as present: resident or on its way in. The driver also counts pages outside
     * every allocation (and holes) as present, so a region at an allocation's edge fills up sooner; counting them as
     * absent moved the baseline by -6 ... +7 % (a review, 2026-11-27). CUDA's tree stops at its VA block's end.
     */
    interface Validity {
        boolean valid(long vpn);
    }

    private final int regionPages;

    TreePrefetcher(int regionPages) { this.regionPages = regionPages; }

    /**
     * Fills {@code out} with the pages to prefetch along with faulting page {@code vpn}, nearest first;
     * returns how many (at most {@code out.length}).
     */
    int prefetch(long vpn, Validity v, long[] out) {
        long root = vpn & -(long) regionPages;
        int best = 0;
        long bestBase = vpn;
        for (int size = 2; size <= regionPages; size <<= 1) {
            long base = vpn & -(long) size;
            if (base < root) break;
            int validCount = 1; // the faulting page itself is coming
            for (long p = base; p < base + size; p++) if (p != vpn && v.valid(p)) validCount++;
            if (validCount * 2 > size) {
                best = size;
                bestBase = base;
            }
        }
        int n = 0;
        if (best == 0) return 0;
        // nearest first, so a cap keeps the pages closest to the fault
        for (int d = 1; d < best && n < out.length; d++) {
            long up = vpn + d, down = vpn - d;
            if (up < bestBase + best && !v.valid(up)) out[n++] = up;
            if (n < out.length && down >= bestBase && !v.valid(down)) out[n++] = down;
        }
        return n;
    }
}
