package org.hmsim.platform.machine;

import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.platform.engine.EvictNotice;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * Counts the requests that reach physical memory per (pool, frame): every L2 miss, write-back and page
 * copy a GPU's fabric accepts (seed 000 §2.3: hotness is counted after the on-chip caches). Only a
 * profiling pass builds a machine with it ({@link ProfilingPass}); other runs have no counter at all,
 * so counting costs them nothing. Counts live in per-pool arrays indexed by frame, grown as frames are
 * used (frames are handed out from 0 upwards), so counting allocates nothing per request.
 */
final class PageAccessCounter {
    private final long pageShift;
    private final long[][] counts;

    PageAccessCounter(int pools, long pageBytes) {
        this.pageShift = Long.numberOfTrailingZeros(pageBytes);
        this.counts = new long[pools][1024];
    }

    /** {@code inner} with counting in front: a request is counted once, when accepted. */
    MemSink wrap(MemSink inner) {
        return new MemSink() {
            @Override
            public boolean tryAccept(MemRequest r, MemClient from) {
                long paddr = r.paddr; // read first: an accepted request may be finished and recycled at once
                boolean access = !EvictNotice.is(r); // an eviction notice touches no data
                if (!inner.tryAccept(r, from)) return false;
                if (access) count(paddr);
                return true;
            }
        };
    }

    private void count(long paddr) {
        int pool = PhysicalAddress.pool(paddr);
        if (pool >= counts.length) return; // a multi-GPU spread-space address: no frame of one pool to count
        int frame = (int) (PhysicalAddress.offset(paddr) >>> pageShift);
        long[] c = counts[pool];
        if (frame >= c.length) c = counts[pool] = java.util.Arrays.copyOf(c, Math.max(frame + 1, c.length * 2));
        c[frame]++;
    }

    /** Accesses counted to the frame holding physical address {@code paddr}. */
    long accessesAt(long paddr) {
        if (PhysicalAddress.pool(paddr) >= counts.length) return 0;
        long[] c = counts[PhysicalAddress.pool(paddr)];
        long frame = PhysicalAddress.offset(paddr) >>> pageShift;
        return frame < c.length ? c[(int) frame] : 0;
    }
}
