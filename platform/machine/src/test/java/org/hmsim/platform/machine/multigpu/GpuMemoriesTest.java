package org.hmsim.platform.machine.multigpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.platform.engine.PhysicalAddress;
import org.junit.jupiter.api.Test;

/** The spread-space address map and the page-group allocator (seed 004 §4.2, Fig. 8). */
class GpuMemoriesTest {
    private static final long PAGE = 4096;

    private static List<PoolInfo> fourHbm(boolean withCpu) {
        List<PoolInfo> l = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) l.add(new PoolInfo(i, "hbm" + i, "HBM2", i, 8, 256e9, 1L << 30));
        if (withCpu) l.add(new PoolInfo(4, "ddr", "DDR4", 4, 4, 80e9, 1L << 30));
        return l;
    }

    /** What validation counts as a multi-GPU machine's room: page groups, so N x the smallest memory (a run found less). */
    @Test
    void pageGroupsHoldNTimesTheSmallestMemory() {
        List<PoolInfo> l = new java.util.ArrayList<>(fourHbm(true));
        l.set(0, new PoolInfo(0, "hbm0", "HBM2", 0, 8, 256e9, 1L << 20)); // 256 frames, the others 262144
        assertEquals(4 * 256 + (1L << 30) / PAGE, GpuMemories.pageCapacity(l, 4, PAGE));
        assertEquals(4 * (1L << 30) / PAGE, GpuMemories.pageCapacity(fourHbm(false), 4, PAGE));
        // one GPU memory: no page groups, every frame counts
        List<PoolInfo> one = List.of(new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 1L << 20), new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 1L << 20));
        assertEquals(2 * 256, GpuMemories.pageCapacity(one, 1, PAGE));
        // and the allocator agrees: fine pages fill exactly that many GPU frames, then it answers full (the OS spills)
        List<PoolInfo> small = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) small.add(new PoolInfo(i, "hbm" + i, "HBM2", i, 8, 256e9, (i == 0 ? 2 : 8) * PAGE));
        GpuMemories m = GpuMemories.of(small, 4, PAGE, 128);
        InterleavePolicy fine = new InterleavePolicy() {
            public int channel(long paddr, int pool, int channels) { return 0; }
            public long channelAddress(long paddr, int pool, int channels) { return paddr; }
        };
        PageGroupAllocator g = new PageGroupAllocator(m, small.stream().mapToLong(PoolInfo::capacityBytes).toArray(), () -> fine);
        Allocation a = new Allocation(0, "x", 0, 16 * PAGE, AllocationHint.NONE, false);
        long room = GpuMemories.pageCapacity(small, 4, PAGE);
        assertEquals(8, room);
        for (int v = 0; v < room; v++) g.map(v, a, 0, 0);
        assertEquals(PageGroupAllocator.GPU_MEMORIES_FULL, g.map(room, a, 0, 0));
    }

    @Test
    void consecutiveBlocksGoRoundTheMemoriesAndAPageGroupKeepsOneLocalFrame() {
        GpuMemories m = GpuMemories.of(fourHbm(true), 4, PAGE, 128);
        assertEquals(4, m.count());
        assertEquals(5, m.spreadPool()); // one past the real pools
        for (int b = 0; b < 8; b++) assertEquals(b % 4, m.home(b * 128L));
        // page group k (4 pages, 16 KB) lies in local frame k of every memory, each block exactly once
        for (long k = 0; k < 3; k++) {
            boolean[][] seen = new boolean[4][(int) (PAGE / 128)];
            for (long o = k * 4 * PAGE; o < (k + 1) * 4 * PAGE; o += 128) {
                long local = m.local(o);
                assertTrue(local >= k * PAGE && local < (k + 1) * PAGE, "offset " + o + " -> local " + local);
                int slot = (int) ((local - k * PAGE) / 128);
                assertTrue(!seen[m.home(o)][slot], "two blocks on one local block");
                seen[m.home(o)][slot] = true;
            }
        }
        // a byte inside a block keeps its offset within the block
        assertEquals(m.local(5 * 128) + 17, m.local(5 * 128 + 17));
        long pa = m.resolve(PhysicalAddress.make(5, 6 * 128 + 3));
        assertEquals(2, PhysicalAddress.pool(pa));
        assertEquals(128 + 3, PhysicalAddress.offset(pa));
    }

    @Test
    void oneGpuMemoryMeansNoSpreadSpace() {
        List<PoolInfo> one = List.of(new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 1L << 30), new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 1L << 30));
        assertNull(GpuMemories.of(one, 1, PAGE, 128));
        assertNull(MultiGpu.create(one, 1, PAGE, new InterleavePolicy() {
            public int channel(long paddr, int pool, int channels) { return 0; }
            public long channelAddress(long paddr, int pool, int channels) { return paddr; }
        }));
    }

    @Test
    void pageGroupsTakeOneModeAndCoarsePagesUseTheirMemorysSlot() {
        List<PoolInfo> pools = fourHbm(true);
        GpuMemories m = GpuMemories.of(pools, 4, PAGE, 128);
        // pages 0..3 spread, then pages on memories 2, 2, 0
        int[] homes = {-1, -1, -1, -1, -1, 2, 2, 0};
        InterleavePolicy il = new InterleavePolicy() {
            public int channel(long paddr, int pool, int channels) { return 0; }
            public long channelAddress(long paddr, int pool, int channels) { return paddr; }
            @Override public int pageHome(long vpn, Allocation a, int gpu, int memories) { return homes[(int) vpn]; }
        };
        long[] cap = pools.stream().mapToLong(PoolInfo::capacityBytes).toArray();
        PageGroupAllocator g = new PageGroupAllocator(m, cap, () -> il);
        Allocation a = new Allocation(0, "x", 0, 8 * PAGE, AllocationHint.NONE, false);
        long[] pa = new long[homes.length];
        for (int v = 0; v < homes.length; v++) pa[v] = g.map(v, a, 0, 0);
        long top = (1L << 30) / PAGE - 1; // groups are taken from the top local frame down
        for (int v = 0; v < 4; v++) assertEquals(PhysicalAddress.make(5, (top * 4 + v) * PAGE), pa[v]); // group 0, FGP
        assertEquals(PhysicalAddress.make(5, (top - 1) * 4 * PAGE), pa[4]); // group 1, FGP
        assertEquals(PhysicalAddress.make(2, (top - 2) * PAGE), pa[5]); // group 2 becomes CGP: slot 2
        assertEquals(PhysicalAddress.make(2, (top - 3) * PAGE), pa[6]); // slot 2 of group 2 is taken: group 3
        assertEquals(PhysicalAddress.make(0, (top - 2) * PAGE), pa[7]); // slot 0 of group 2 is still free
        // an FGP page's blocks all land in its group's local frame
        assertEquals(top * PAGE, PhysicalAddress.offset(m.resolve(pa[0])) / PAGE * PAGE);
        assertEquals(-1, g.map(0, a, 4, 0)); // the CPU pool is not GPU memory: the OS's own frames
        assertEquals(5, g.fgpPages());
        assertEquals(2, g.cgpPages(2));
    }
}
