package org.hmsim.platform.memory.os;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.memory.Fixtures;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

class OsMemoryManagerTest {
    private static final long PAGE = 4096;
    private final EventQueue engine = new EventQueue();
    private final RequestPool requests = new RequestPool();
    private final List<Long> placedVpns = new ArrayList<>();

    /** Always asks for one pool, and records what it was asked. */
    private PlacementPolicy always(int pool) {
        return (vpn, allocation, gpu) -> {
            placedVpns.add(vpn);
            return pool;
        };
    }

    private static PoolInfo info(int index, String name, double bw, long pages) {
        return new PoolInfo(index, name, "DRAM", 0, 1, bw, pages * PAGE);
    }

    private OsMemoryManager os(PhysicalMemory mem, PoolInfo... pools) {
        return new OsMemoryManager(List.of(pools), PAGE, engine, requests, mem);
    }

    @Test
    void allocationsArePageAlignedInOrderWithGuardGaps() {
        OsMemoryManager os = os(null, info(0, "gddr", 200e9, 16));
        Allocation a = os.allocate("a", 5000, AllocationHint.NONE, false);
        Allocation b = os.allocate("b", 100, AllocationHint.BO, true);
        assertEquals(0, a.baseVa() % PAGE);
        assertEquals(0, b.baseVa() % PAGE);
        assertTrue(b.baseVa() >= a.baseVa() + 2 * PAGE + PAGE, "two pages for a, then a guard page");
        assertEquals(List.of(a, b), os.allocations());
        assertSame(a, os.allocationOf(a.baseVa() + 4999));
        assertNull(os.allocationOf(a.baseVa() + 5000));
        assertSame(b, os.allocationOf(b.baseVa()));
    }

    @Test
    void anAllocationWhosePageTableCannotFitIsRefusedByName() {
        OsMemoryManager os = os(null, info(0, "gddr", 200e9, 16));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> os.allocate("x", 1L << 50, AllocationHint.NONE, false));
        assertTrue(e.getMessage().startsWith("allocation 'x' of " + (1L << 50) + " bytes is "), e.getMessage());
        assertTrue(os.allocations().isEmpty(), "nothing half-made is left");
    }

    @Test
    void allocationsBeyondEveryPoolAreRefusedAtOnceUnlessDemandPaged() {
        OsMemoryManager os = os(null, info(0, "gddr", 200e9, 16), info(1, "ddr", 50e9, 8));
        os.allocate("a", 20 * PAGE, AllocationHint.NONE, false);
        os.allocate("b", 4 * PAGE, AllocationHint.NONE, false); // 24 of 24 frames: fits
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> os.allocate("c", 1, AllocationHint.NONE, false));
        assertTrue(e.getMessage().startsWith("allocation 'c' of 1 bytes takes the allocations to 25 pages of 4096 bytes, more than the machine's pools hold (24 frames"),
                e.getMessage());
        OsMemoryManager paged = os(null, info(0, "gddr", 200e9, 16));
        paged.setDemandPaged(true);
        paged.allocate("big", 64 * PAGE, AllocationHint.NONE, false); // evicted pages live in host memory
        assertEquals(1, paged.allocations().size());
    }

    @Test
    void firstTouchMapsThroughPlacementAndSetsSharerBits() {
        OsMemoryManager os = os(null, info(0, "gddr", 200e9, 16), info(1, "ddr", 80e9, 64));
        os.setPlacement(always(1));
        Allocation a = os.allocate("x", 3 * PAGE, AllocationHint.NONE, false);
        long vpn = a.baseVa() / PAGE;
        assertEquals(-1, os.poolOf(vpn));
        assertEquals(-1, os.lookup(a.baseVa()));
        long pa = os.translate(a.baseVa() + 100, 2);
        assertEquals(1, PhysicalAddress.pool(pa));
        assertEquals(100, pa % PAGE);
        assertEquals(pa, os.translate(a.baseVa() + 100, 0), "a mapped page keeps its frame");
        assertEquals(List.of(vpn), placedVpns, "placement is asked once per page");
        assertEquals(1, os.poolOf(vpn));
        assertEquals(0b101, os.sharers(vpn));
        assertTrue(os.translatedByGpu(vpn));
        os.translate(a.baseVa() + PAGE, -1); // a CPU touch maps but sets no GPU bit
        assertFalse(os.translatedByGpu(vpn + 1));
        assertEquals(2, os.mappedPages(1));
        assertEquals(62, os.freeFrames(1));
        assertEquals(64, os.totalFrames(1));
        assertEquals(2, os.firstTouchFaults());
        assertNotEquals(PhysicalAddress.offset(os.lookup(a.baseVa())) / PAGE, PhysicalAddress.offset(os.lookup(a.baseVa() + PAGE)) / PAGE);
    }

    @Test
    void fullPoolSpillsByDescendingBandwidth() {
        OsMemoryManager os = os(null, info(0, "hbm", 400e9, 4), info(1, "slow", 10e9, 100), info(2, "ddr", 80e9, 2));
        os.setPlacement(always(0));
        StatsRegistry stats = new StatsRegistry();
        os.registerStats(stats);
        Allocation a = os.allocate("big", 10 * PAGE, AllocationHint.NONE, false);
        int[] pools = new int[10];
        for (int i = 0; i < 10; i++) pools[i] = PhysicalAddress.pool(os.translate(a.baseVa() + i * PAGE, 0));
        assertArrayEquals(new int[]{0, 0, 0, 0, 2, 2, 1, 1, 1, 1}, pools, "hbm full -> ddr (80 GB/s) before slow (10 GB/s)");
        assertEquals(6, os.spills());
        assertEquals(6.0, stats.value("os.spills"));
        assertEquals(4.0, stats.value("os.slow.mapped_pages"));
        assertEquals(0.0, stats.value("os.hbm.free_frames"));
        // a page the host maps into the full pool spills and counts too (touch_order: host)
        Allocation b = os.allocate("more", 2 * PAGE, AllocationHint.NONE, false);
        assertEquals(1, os.map(b.baseVa() / PAGE, 0), "hbm is full: the slow pool, the one with frames left");
        assertEquals(7, os.spills());
        assertEquals(-1, os.map(b.baseVa() / PAGE, 1), "mapped already");
        assertEquals(1, os.map(b.baseVa() / PAGE + 1, 1), "into the pool asked, no spill");
        assertEquals(7, os.spills());
    }

    @Test
    void everyPoolFullIsAnError() {
        OsMemoryManager os = os(null, info(0, "g", 200e9, 1));
        os.setPlacement(always(0));
        os.setDemandPaged(true); // else the allocation itself is refused (allocationsBeyondEveryPool...)
        Allocation a = os.allocate("x", 2 * PAGE, AllocationHint.NONE, false);
        os.translate(a.baseVa(), 0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> os.translate(a.baseVa() + PAGE, 0));
        assertTrue(e.getMessage().contains("out of memory"));
    }

    @Test
    void faultOutsideEveryAllocationNamesTheAddress() {
        OsMemoryManager os = os(null, info(0, "g", 200e9, 16));
        os.setPlacement(always(0));
        Allocation a = os.allocate("x", 100, AllocationHint.NONE, false);
        os.allocate("y", 100, AllocationHint.NONE, false);
        long bad = a.baseVa() + 200; // past the end of x: inside x's last page but not in x
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> os.translate(bad, 3));
        assertTrue(e.getMessage().contains(Long.toHexString(bad)), e.getMessage());
        long guard = a.baseVa() + PAGE;
        e = assertThrows(IllegalArgumentException.class, () -> os.translate(guard, 0));
        assertTrue(e.getMessage().contains(Long.toHexString(guard)));
        assertThrows(IllegalArgumentException.class, () -> os.translate(12, -1));
    }

    @Test
    void migrationCopiesThePageThroughBothPoolsAndShootsDownSharers() {
        DramPool gddr = new DramPool(Fixtures.pool("gddr", 2, 50e9, 16, "fr-fcfs"), 0, engine, new Fixtures.FineInterleave(256), requests);
        DramPool ddr = new DramPool(Fixtures.pool("ddr", 1, 20e9, 16, "fr-fcfs"), 1, engine, new Fixtures.FineInterleave(256), requests);
        DramPool[] dram = {gddr, ddr};
        int[] refused = {0};
        PhysicalMemory fabric = (r, from) -> {
            boolean ok = dram[r.pool].sink().tryAccept(r, from);
            if (!ok) refused[0]++;
            return ok;
        };
        OsMemoryManager os = os(fabric, gddr.info(), ddr.info());
        os.setPlacement(always(1));
        os.setCopyRequestsInFlight(4);
        List<long[]> shootdowns = new ArrayList<>();
        os.setShootdownListener((vpn, mask, oldFrame) -> shootdowns.add(new long[]{vpn, mask}));
        StatsRegistry stats = new StatsRegistry();
        os.registerStats(stats);

        Allocation a = os.allocate("x", 2 * PAGE, AllocationHint.NONE, false);
        long vpn = a.baseVa() / PAGE;
        long oldPa = os.translate(a.baseVa(), 0);
        os.translate(a.baseVa(), 3);
        assertFalse(os.migrate(vpn + 1, 0, null), "an unmapped page cannot move");
        assertFalse(os.migrate(vpn, 1, null), "already there");
        boolean[] done = {false};
        assertTrue(os.migrate(vpn, 0, () -> done[0] = true));
        assertFalse(os.migrate(vpn, 0, null), "already moving");
        assertTrue(os.isMigrating(vpn));
        assertEquals(1, os.poolOf(vpn), "accesses go to the old frame during the copy");
        engine.run();
        assertTrue(done[0]);
        assertEquals(0, os.poolOf(vpn));
        assertEquals(0, PhysicalAddress.pool(os.lookup(a.baseVa())));
        assertNotEquals(oldPa, os.lookup(a.baseVa()));
        assertEquals(PAGE, ddr.bytesServed(), "the old frame was read once");
        assertEquals(PAGE, gddr.bytesServed(), "the new frame was written once");
        assertEquals(PAGE / 128, ddr.reads());
        assertEquals(PAGE / 128, gddr.writes());
        assertEquals(2 * PAGE, os.copyBytes());
        assertEquals(1, shootdowns.size());
        assertEquals(vpn, shootdowns.get(0)[0]);
        assertEquals(0b1001, shootdowns.get(0)[1], "GPUs 0 and 3 had translated it");
        assertFalse(os.translatedByGpu(vpn), "sharer bits cleared by the move");
        assertEquals(1, os.mappedPages(0));
        assertEquals(0, os.mappedPages(1));
        assertEquals(os.totalFrames(1), os.freeFrames(1), "the old frame is free again");
        assertEquals(1, os.migrations());
        assertEquals(0, os.migrationsInFlight());
        assertEquals(2.0 * PAGE, stats.value("os.copy_bytes"));
        assertEquals(0, gddr.inFlight() + ddr.inFlight());
    }

    /** A machine whose CPU side a shootdown does not reach refuses every migration (Machine calls this when it has a cpu:). */
    @Test
    void refusedMigrationsStartNothing() {
        DramPool gddr = new DramPool(Fixtures.pool("gddr", 2, 50e9, 16, "fr-fcfs"), 0, engine, new Fixtures.FineInterleave(256), requests);
        DramPool ddr = new DramPool(Fixtures.pool("ddr", 1, 20e9, 16, "fr-fcfs"), 1, engine, new Fixtures.FineInterleave(256), requests);
        DramPool[] dram = {gddr, ddr};
        OsMemoryManager os = os((r, from) -> dram[r.pool].sink().tryAccept(r, from), gddr.info(), ddr.info());
        os.setPlacement(always(1));
        Allocation a = os.allocate("x", 2 * PAGE, AllocationHint.NONE, false);
        long vpn = a.baseVa() / PAGE;
        os.translate(a.baseVa(), 0);
        os.refuseMigrations("a CPU side");
        assertFalse(os.migrate(vpn, 0, null), "refused");
        assertFalse(os.isMigrating(vpn));
        assertEquals("a CPU side", os.migrationRefusal());
        StatsRegistry stats = new StatsRegistry();
        os.registerStats(stats);
        assertEquals(1.0, stats.value("os.migrations_refused"), "counted, so a policy that asked is seen to have done nothing");
        assertEquals(1, os.poolOf(vpn));
    }

    @Test
    void migrationRespectsTheCopyWindowAndBackPressure() {
        // a tiny DDR queue forces refusals; the copy still completes, with at most N copy requests out
        DramPool gddr = new DramPool(Fixtures.pool("gddr", 1, 50e9, 16, "fr-fcfs"), 0, engine, new Fixtures.FineInterleave(256), requests);
        DramPool ddr = new DramPool(Fixtures.pool("ddr", 1, 20e9, 1, "fr-fcfs"), 1, engine, new Fixtures.FineInterleave(256), requests);
        DramPool[] dram = {gddr, ddr};
        int[] outstanding = {0}, maxOutstanding = {0}, refused = {0};
        PhysicalMemory fabric = (r, from) -> {
            boolean ok = dram[r.pool].sink().tryAccept(r, from);
            if (!ok) refused[0]++;
            return ok;
        };
        OsMemoryManager os = os(fabric, gddr.info(), ddr.info());
        os.setPlacement(always(1));
        os.setCopyRequestsInFlight(3);
        Allocation a = os.allocate("x", 4 * PAGE, AllocationHint.NONE, false);
        for (int i = 0; i < 4; i++) os.translate(a.baseVa() + i * PAGE, 0);
        int[] finished = {0};
        for (int i = 0; i < 4; i++) assertTrue(os.migrate(a.baseVa() / PAGE + i, 0, () -> finished[0]++));
        assertEquals(4, os.migrationsInFlight());
        while (!engine.isEmpty()) {
            engine.step();
            int n = ddr.inFlight() + gddr.inFlight();
            maxOutstanding[0] = Math.max(maxOutstanding[0], n);
        }
        assertEquals(4, finished[0]);
        assertTrue(refused[0] > 0, "the one-entry DDR queue pushed back");
        assertTrue(maxOutstanding[0] <= 4 * 3, "at most 3 copy requests per migration: " + maxOutstanding[0]);
        assertEquals(8 * PAGE, os.copyBytes());
        assertEquals(4, os.mappedPages(0));
        assertEquals(0, outstanding[0]);
    }
}
