package org.hmsim.platform.memory.os;

import org.hmsim.api.os.Allocation;

/**
 * The page-table part of one allocation, flat arrays indexed by page within the allocation: the
 * physical address of each page's frame (-1 = not mapped yet), its GPU sharer mask (bit g = GPU g has
 * translated the page since it was mapped or last moved) and whether a migration is copying it.
 */
final class AllocationPages {
    final Allocation allocation;
    final long baseVpn;
    final long[] frame;
    final long[] sharers;
    final boolean[] migrating;

    AllocationPages(Allocation a, long pageBytes) {
        this.allocation = a;
        this.baseVpn = a.baseVa() / pageBytes;
        int pages = Math.toIntExact((a.bytes() + pageBytes - 1) / pageBytes);
        frame = new long[pages];
        java.util.Arrays.fill(frame, -1L);
        sharers = new long[pages];
        migrating = new boolean[pages];
    }

    boolean holdsVpn(long vpn) { return vpn >= baseVpn && vpn < baseVpn + frame.length; }
}
