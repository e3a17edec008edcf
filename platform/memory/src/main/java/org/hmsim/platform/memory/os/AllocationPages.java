package org.hmsim.platform.memory.os;

import org.hmsim.api.os.Allocation;

/**
 * The page-table part of one allocation, flat arrays indexed by page within the allocation: the
 * physical address of each page's frame (-1 = not mapped yet), its GPU sharer mask (bit g = GPU g has
 * translated the page since it was mapped or last moved) and whether a migration is copying it.
 */
final class AllocationPages {
    /** Bytes each page costs here: its frame, its sharer mask and its migrating flag. */
    private static final long PAGE_TABLE_BYTES = 8 + 8 + 1;

    final Allocation allocation;
    final long baseVpn;
    final long[] frame;
    final long[] sharers;
    final boolean[] migrating;

    AllocationPages(Allocation a, long pageBytes) {
        this.allocation = a;
        this.baseVpn = a.baseVa() / pageBytes;
        long n = (a.bytes() + pageBytes - 1) / pageBytes;
        // 17 bytes of page table per page: a size typed with a few zeros too many would otherwise end the
        // run in an OutOfMemoryError that names nothing the user wrote
        long tableBytes = n * PAGE_TABLE_BYTES;
        if (n > Integer.MAX_VALUE - 8 || tableBytes > Runtime.getRuntime().maxMemory() / 2)
            throw new IllegalArgumentException("allocation '" + a.name() + "' of " + a.bytes() + " bytes is " + n + " pages of " + pageBytes
                    + " bytes; their page table alone would take " + (tableBytes >> 20) + " MB, more than half of this JVM's "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MB heap: is the size meant? (larger pages, or HMSIM_JAVA_OPTS=-Xmx...)");
        int pages = (int) n;
        frame = new long[pages];
        java.util.Arrays.fill(frame, -1L);
        sharers = new long[pages];
        migrating = new boolean[pages];
    }

    boolean holdsVpn(long vpn) { return vpn >= baseVpn && vpn < baseVpn + frame.length; }
}
