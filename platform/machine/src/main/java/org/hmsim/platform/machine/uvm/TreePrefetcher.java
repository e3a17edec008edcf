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
     * A page (by vpn) as the tree sees it: {@link #PRESENT} (resident or on its way in), {@link #ABSENT}, or
     * {@link #OUTSIDE} the faulting page's allocation. CUDA's tree covers one VA block, a 2 MB-aligned piece of one
     * allocation: at an allocation's edge its nodes hold only that allocation's pages, so pages outside count neither
     * as valid nor toward a node's size (the driver's subregion clipped to the block), and are never fetched.
     */
    interface Pages {
        int OUTSIDE = -1, ABSENT = 0, PRESENT = 1;

        int state(long vpn);
    }

    private final int regionPages;

    TreePrefetcher(int regionPages) { this.regionPages = regionPages; }

    /**
     * Fills {@code out} with the pages to prefetch along with faulting page {@code vpn}, nearest first;
     * returns how many (at most {@code out.length}).
     */
    int prefetch(long vpn, Pages pages, long[] out) {
        long root = vpn & -(long) regionPages;
        int best = 0;
        long bestBase = vpn;
        for (int size = 2; size <= regionPages; size <<= 1) {
            long base = vpn & -(long) size;
            if (base < root) break;
            int inside = 1, present = 1; // the faulting page itself is coming
            for (long p = base; p < base + size; p++) {
                if (p == vpn) continue;
                int st = pages.state(p);
                if (st != Pages.OUTSIDE) inside++;
                if (st == Pages.PRESENT) present++;
            }
            if (present * 2 > inside) {
                best = size;
                bestBase = base;
            }
        }
        int n = 0;
        if (best == 0) return 0;
        // nearest first, so a cap keeps the pages closest to the fault
        for (int d = 1; d < best && n < out.length; d++) {
            long up = vpn + d, down = vpn - d;
            if (up < bestBase + best && pages.state(up) == Pages.ABSENT) out[n++] = up;
            if (n < out.length && down >= bestBase && pages.state(down) == Pages.ABSENT) out[n++] = down;
        }
        return n;
    }
}
