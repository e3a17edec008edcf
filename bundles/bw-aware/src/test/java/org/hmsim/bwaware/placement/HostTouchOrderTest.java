package org.hmsim.bwaware.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.os.MemoryManager;
import org.junit.jupiter.api.Test;

/**
 * {@code touch_order: host}: frames are handed out in allocation and address order whatever order the kernels touch
 * the pages in, as the host's copies before the first kernel would (seed 000 Ch. 4.3): a fast pool that fills takes
 * the lowest-addressed pages.
 */
class HostTouchOrderTest {
    static final long PAGE = 4096;

    /** Two allocations (pages 0-9 and 16-25) and a fast pool 0 of {@code fastFrames}; records the order pages are mapped in. */
    static final class Memory implements MemoryManager {
        final List<Allocation> allocs = List.of(new Allocation(0, "a", 0, 10 * PAGE, AllocationHint.NONE, false),
                new Allocation(1, "b", 16 * PAGE, 10 * PAGE, AllocationHint.NONE, false));
        final Map<Long, Integer> pool = new HashMap<>();
        final List<Long> order = new ArrayList<>();
        int fastFrames;

        Memory(int fastFrames) { this.fastFrames = fastFrames; }

        /** A first touch by the GPU: the policy's host order catches up, then the touched page is mapped. */
        void touch(HostTouchOrder host, long vpn) {
            Allocation a = allocationOf(vpn * PAGE);
            host.catchUp(vpn, a, (v, al) -> 0);
            if (poolOf(vpn) < 0) map(vpn, 0);
        }

        @Override public long pageBytes() { return PAGE; }
        @Override public List<Allocation> allocations() { return allocs; }
        @Override public Allocation allocationOf(long va) { return allocs.stream().filter(a -> a.contains(va)).findFirst().orElse(null); }
        @Override public int poolOf(long vpn) { return pool.getOrDefault(vpn, -1); }
        @Override public long freeFrames(int p) { return p == 0 ? fastFrames : Long.MAX_VALUE; }
        @Override public long totalFrames(int p) { return freeFrames(p); }
        @Override public long mappedPages(int p) { return pool.values().stream().filter(x -> x == p).count(); }
        @Override public boolean migrate(long vpn, int toPool, Runnable done) { return false; }
        @Override public boolean translatedByGpu(long vpn) { return false; }

        @Override
        public int map(long vpn, int want) {
            int got = want == 0 && fastFrames == 0 ? 1 : want; // a full fast pool spills, as first touch does
            if (got == 0) fastFrames--;
            pool.put(vpn, got);
            order.add(vpn);
            return got;
        }
    }

    @Test
    void aKernelTouchingTheSecondArrayFirstStillFillsTheFastPoolWithTheFirstArray() {
        Memory m = new Memory(6);
        HostTouchOrder host = new HostTouchOrder(m);
        m.touch(host, 20); // b's fifth page first: all of a and b's first four are copied in before it
        m.touch(host, 3);  // already mapped: nothing moves
        m.touch(host, 25); // b's last page: 21..24 first
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 16L, 17L, 18L, 19L, 20L, 21L, 22L, 23L, 24L, 25L), m.order);
        for (long v = 0; v < 6; v++) assertEquals(0, m.poolOf(v), "page " + v + " in the fast pool");
        for (long v : new long[] {6, 9, 16, 20, 25}) assertEquals(1, m.poolOf(v), "page " + v + " spilled");
    }
}
