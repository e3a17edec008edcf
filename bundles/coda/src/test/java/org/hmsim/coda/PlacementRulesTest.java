package org.hmsim.coda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.InterleavePolicy;
import org.junit.jupiter.api.Test;

/** CODA's placement (Eq. 2-3) and scheduling (Eq. 1) rules on their own. */
class PlacementRulesTest {
    private static final long PAGE = 4096, BASE = 1L << 32;

    /** A memory manager that knows one stride per allocation id. */
    private static MemoryManager strides(long... b) {
        return new MemoryManager() {
            public long pageBytes() { return PAGE; }
            public List<Allocation> allocations() { return List.of(); }
            public Allocation allocationOf(long va) { return null; }
            public int poolOf(long vpn) { return -1; }
            public long freeFrames(int pool) { return 0; }
            public long totalFrames(int pool) { return 0; }
            public long mappedPages(int pool) { return 0; }
            public boolean migrate(long vpn, int toPool, Runnable done) { return false; }
            public boolean translatedByGpu(long vpn) { return false; }
            @Override public long ctaStrideBytes(Allocation a) { return b[a.id()]; }
        };
    }

    private static CodaInterleave coda(MemoryManager mm, int bpg, CodaInterleave.Chunk c) {
        return new CodaInterleave(128, 128, mm, new GpuGeometry.LazyBlocks(null, bpg), GpuGeometry.oneMemoryEach(4), c, 1.0);
    }

    private static Allocation alloc(int id, long bytes) { return new Allocation(id, "a" + id, BASE, bytes, AllocationHint.NONE, false); }

    @Test
    void pagesFollowTheBlockGroupsOfEquationOne() {
        // B = 256 B, N_bpg = 32: one GPU's blocks use 8 KB = 2 pages, so pages 0-1 -> GPU 0, 2-3 -> GPU 1, ...
        CodaInterleave p = coda(strides(256), 32, CodaInterleave.Chunk.OWNER);
        Allocation a = alloc(0, 64 * PAGE);
        for (int q = 0; q < 16; q++) {
            int home = p.pageHome(BASE / PAGE + q, a, 0, 4);
            // the blocks that touch page q: (q * PAGE / 256) .. ; Eq. 1 sends them to this GPU
            int firstBlock = (int) (q * PAGE / 256);
            assertEquals(GpuGeometry.affinity(firstBlock, 32, 4), home, "page " + q);
        }
    }

    @Test
    void literalEquationTwoIsPageRoundRobinAndSmallChunksStaySpread() {
        CodaInterleave lit = coda(strides(256), 32, CodaInterleave.Chunk.LITERAL);
        Allocation a = alloc(0, 64 * PAGE);
        for (int q = 0; q < 8; q++) assertEquals(q % 4, lit.pageHome(BASE / PAGE + q, a, 0, 4));
        // B x N_bpg = 64 x 32 = 2 KB < one page: fine-grained; stride 0 (shared) and -1 (unknown) too
        CodaInterleave p = coda(strides(64, 0, -1), 32, CodaInterleave.Chunk.OWNER);
        for (int id = 0; id < 3; id++) assertEquals(InterleavePolicy.SPREAD, p.pageHome(BASE / PAGE, alloc(id, PAGE), 0, 4));
    }

    @Test
    void ownerRuleGivesAStraddlingPageToTheMajorityOwner() {
        // L = 96 B x 64 = 6 KB: page 1 holds 2 KB of GPU 0's chunk and 2 KB of GPU 1's; page 2 is all GPU 1's
        CodaInterleave p = coda(strides(96), 64, CodaInterleave.Chunk.OWNER);
        Allocation a = alloc(0, 64 * PAGE);
        assertEquals(0, p.pageHome(BASE / PAGE, a, 0, 4));
        assertEquals(1, p.pageHome(BASE / PAGE + 1, a, 0, 4)); // middle byte 6 KB: first byte of chunk 1
        assertEquals(1, p.pageHome(BASE / PAGE + 2, a, 0, 4));
        assertEquals(2, p.pageHome(BASE / PAGE + 3, a, 0, 4)); // middle 14 KB: chunk 2
    }

    /**
     * Chunks go round the GPUs, not the memories: with two GPUs of two memories each (memories 0-1 on GPU 0, 2-3 on
     * GPU 1) a GPU's chunk fills its own two memories in turn; on one GPU with four memories nothing is placed coarse.
     */
    @Test
    void chunksGoToGpusWhoseMemoriesTakeTheirPagesInTurn() {
        int[][] twoByTwo = {{0, 1}, {2, 3}};
        // B = 256 B, N_bpg = 32: 8 KB = 2 pages per GPU's chunk: pages 0-1 -> GPU 0, 2-3 -> GPU 1, 4-5 -> GPU 0, ...
        CodaInterleave p = new CodaInterleave(128, 128, strides(256), new GpuGeometry.LazyBlocks(null, 32), twoByTwo, CodaInterleave.Chunk.OWNER, 1.0);
        Allocation a = alloc(0, 64 * PAGE);
        long v = BASE / PAGE;
        int[] expected = {0, 1, 2, 3, 0, 1, 2, 3};
        for (int q = 0; q < expected.length; q++) assertEquals(expected[q], p.pageHome(v + q, a, 0, 4), "page " + q);

        CodaInterleave big = new CodaInterleave(128, 128, strides(256), new GpuGeometry.LazyBlocks(null, 32), new int[][] {{0, 1, 2, 3}},
                CodaInterleave.Chunk.OWNER, 1.0);
        for (int q = 0; q < 8; q++) assertEquals(InterleavePolicy.SPREAD, big.pageHome(v + q, a, 0, 4), "one GPU: page " + q);

        FirstTouchInterleave ft = new FirstTouchInterleave(128, twoByTwo);
        assertEquals(2, ft.pageHome(v, a, 1, 4));
        assertEquals(3, ft.pageHome(v + 1, a, 1, 4), "GPU 1's next page goes to its other memory");
        FirstTouchInterleave one = new FirstTouchInterleave(128, new int[][] {{0, 1, 2, 3}});
        for (int q = 0; q < 8; q++) assertEquals(q % 4, one.pageHome(v + 9 * q, a, 0, 4), "one GPU's pages spread, touched at a stride");

        // chunks of one page (B = 128 B, N_bpg = 32: 4 KB): GPU 0 owns the even pages, GPU 1 the odd ones; each GPU's
        // pages still fill both its memories evenly (by page number, all of GPU 0's went to memory 0)
        CodaInterleave onePage = new CodaInterleave(128, 128, strides(128), new GpuGeometry.LazyBlocks(null, 32), twoByTwo,
                CodaInterleave.Chunk.OWNER, 1.0);
        int[] perMemory = new int[4];
        for (int q = 0; q < 64; q++) perMemory[onePage.pageHome(v + q, a, 0, 4)]++;
        assertArrayEquals(new int[] {16, 16, 16, 16}, perMemory);
    }

    /**
     * A GPU's memories are found by node, in pool order, whatever order the GPUs' pools come in, and the CPU's pool is
     * nobody's: GPU 0 owns pools 1 and 3 (memories 1 and 3), GPU 1 pools 0 and 2, pool 4 is the CPU's (node 2). What
     * migrate-on-touch moves a page to (pool indices) and what placement returns (memory indices) agree.
     */
    @Test
    void aGpusMemoriesAreFoundByNodeInPoolOrder() {
        java.util.List<org.hmsim.api.machine.PoolInfo> pools = java.util.List.of(pool(0, 1), pool(1, 0), pool(2, 1), pool(3, 0), pool(4, 2));
        org.hmsim.api.machine.MachineView m = new org.hmsim.api.machine.MachineView() {
            public org.hmsim.api.engine.Engine engine() { return null; }
            public org.hmsim.api.engine.ClockDomain gpuClock() { return null; }
            public int gpuCount() { return 2; }
            public java.util.List<? extends CoreView> sms() { return java.util.List.of(); }
            public java.util.List<org.hmsim.api.machine.PoolInfo> pools() { return pools; }
            public java.util.List<? extends org.hmsim.api.machine.DramView> dram() { return java.util.List.of(); }
            public java.util.List<? extends org.hmsim.api.machine.LinkView> links() { return java.util.List.of(); }
            public int localPool(int gpu) { return -1; }
            public int lineBytes() { return 128; }
            public long pageBytes() { return PAGE; }
            public void stallGpu(int gpu, long ps) {}
        };
        assertArrayEquals(new int[] {1, 3}, GpuGeometry.memoriesOfGpu(m)[0]);
        assertArrayEquals(new int[] {0, 2}, GpuGeometry.memoriesOfGpu(m)[1]);
        assertArrayEquals(new int[] {1, 3}, GpuGeometry.poolsOfGpu(m)[0]);
        GpuGeometry.MemoryTurns toPool = new GpuGeometry.MemoryTurns(GpuGeometry.poolsOfGpu(m));
        assertEquals(0, toPool.next(1));
        assertEquals(2, toPool.next(1), "GPU 1's next migrated page goes to its other memory");
        assertEquals(1, toPool.next(0));
    }

    private static org.hmsim.api.machine.PoolInfo pool(int index, int node) {
        return new org.hmsim.api.machine.PoolInfo(index, "p" + index, "HBM2", node, 8, 256e9, 1L << 30);
    }

    /** A fake SM for the schedulers. */
    private record Sm(int gpu, int index) implements CoreView {
        public String name() { return "gpu" + gpu + ".sm" + index; }
        public int inFlight() { return 0; }
        public void registerStats(org.hmsim.api.stats.Stats s) {}
        public int residentCtas() { return 0; }
        public int residentWarps() { return 0; }
        public int maxCtas() { return 8; }
        public int maxWarps() { return 48; }
        public boolean issueEnabled() { return true; }
        public void setIssueEnabled(boolean enabled) {}
        public int ctaLimit() { return 8; }
        public void setCtaLimit(int ctas) {}
        public int warpLimit() { return 48; }
        public void setWarpLimit(int warps) {}
        public org.hmsim.api.machine.CacheView l1() { return null; }
        public long issued() { return 0; }
        public long issueCycles() { return 0; }
        public long occupiedCycles() { return 0; }
    }

    @Test
    void affinityAndContiguousSendBlocksToTheirGpuAndHoldThemWhenItIsFull() {
        List<CoreView> sms = new ArrayList<>();
        for (int s = 0; s < 2; s++) for (int g = 0; g < 4; g++) sms.add(new Sm(g, s)); // SM-major, as the launcher orders them
        boolean[] all = new boolean[8];
        java.util.Arrays.fill(all, true);
        AffinityCta aff = new AffinityCta(false, 4, new GpuGeometry.LazyBlocks(null, 4));
        for (int b = 0; b < 32; b++) assertEquals((b / 4) % 4, sms.get(aff.pickSm(0, b, sms, all)).gpu(), "block " + b);
        boolean[] gpu1Full = all.clone();
        gpu1Full[1] = gpu1Full[5] = false;
        assertEquals(-1, aff.pickSm(0, 5, sms, gpu1Full)); // no work stealing
        AffinityCta cont = new AffinityCta(true, 4, new GpuGeometry.LazyBlocks(null, 1));
        cont.onKernelLaunch(0, 100, 8);
        assertEquals(0, sms.get(cont.pickSm(0, 24, sms, all)).gpu());
        assertEquals(1, sms.get(cont.pickSm(0, 25, sms, all)).gpu());
        assertEquals(3, sms.get(cont.pickSm(0, 99, sms, all)).gpu());
    }
}
