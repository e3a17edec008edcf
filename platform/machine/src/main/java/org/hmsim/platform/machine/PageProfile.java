package org.hmsim.platform.machine;

import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.AccessProfile;
import org.hmsim.platform.memory.os.OsMemoryManager;

/**
 * The result of a profiling pass: DRAM accesses per page of every allocation, read from the pass's
 * {@link PageAccessCounter} through the pass's final page table. A page that migrated during the pass
 * is credited with its last frame's count only (profiling passes normally run without migration).
 */
final class PageProfile implements AccessProfile {
    private final List<Allocation> allocations;
    private final long[][] perPage;
    private final long[] baseVpn;
    private final long pageBytes;
    private final long total;

    private PageProfile(List<Allocation> allocations, long[][] perPage, long pageBytes) {
        this.allocations = List.copyOf(allocations);
        this.perPage = perPage;
        this.pageBytes = pageBytes;
        this.baseVpn = new long[perPage.length];
        long sum = 0;
        for (int a = 0; a < perPage.length; a++) {
            baseVpn[a] = allocations.get(a).baseVa() / pageBytes;
            for (long c : perPage[a]) sum += c;
        }
        this.total = sum;
    }

    static PageProfile of(OsMemoryManager os, PageAccessCounter counter) {
        List<Allocation> allocs = os.allocations();
        long pb = os.pageBytes();
        long[][] per = new long[allocs.size()][];
        for (int a = 0; a < per.length; a++) {
            Allocation al = allocs.get(a);
            int pages = (int) ((al.bytes() + pb - 1) / pb);
            per[a] = new long[pages];
            for (int i = 0; i < pages; i++) {
                long pa = os.lookup(al.baseVa() + (long) i * pb);
                per[a][i] = pa < 0 ? 0 : counter.accessesAt(pa);
            }
        }
        return new PageProfile(allocs, per, pb);
    }

    @Override
    public List<Allocation> allocations() { return allocations; }

    @Override
    public long accesses(long vpn) {
        int lo = 0, hi = baseVpn.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (vpn < baseVpn[mid]) hi = mid - 1;
            else if (vpn >= baseVpn[mid] + perPage[mid].length) lo = mid + 1;
            else return perPage[mid][(int) (vpn - baseVpn[mid])];
        }
        return 0;
    }

    @Override
    public long[] pageAccesses(int allocationId) { return perPage[allocationId].clone(); }

    @Override
    public long totalAccesses() { return total; }

    long pageBytes() { return pageBytes; }
}
