package org.hmsim.baseline.placement;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

class PlacementPoliciesTest {
    private static final Allocation ALLOC = new Allocation(0, "a", 1L << 32, 1L << 30, AllocationHint.NONE, false);

    private static PlacementPolicy create(PolicyProvider p, FakeContext ctx, Map<String, ?> params) {
        assertEquals(Slot.PLACEMENT, p.slot());
        assertTrue(p.description().contains("seed 000 §2."), "cites the seed");
        Object policy = p.create(ctx, Params.validate(p.parameters(), params));
        assertInstanceOf(p.slot().policyType(), policy);
        return (PlacementPolicy) policy;
    }

    @Test
    void localNeverLeavesTheTouchersPool() {
        FakeContext ctx = new FakeContext(2, List.of(
                new PoolInfo(0, "hbm0", "HBM2", 0, 8, 400e9, 1L << 30),
                new PoolInfo(1, "hbm1", "HBM2", 1, 8, 400e9, 1L << 30),
                new PoolInfo(2, "ddr", "DDR4", 2, 4, 80e9, 1L << 34)), 1);
        PlacementPolicy local = create(new LocalPlacementProvider(), ctx, Map.of());
        for (long vpn = 0; vpn < 10_000; vpn++) {
            assertEquals(0, local.choosePool(vpn, ALLOC, 0));
            assertEquals(1, local.choosePool(vpn, ALLOC, 1));
            assertEquals(2, local.choosePool(vpn, ALLOC, -1), "a CPU touch goes to the CPU's pool");
        }
    }

    @Test
    void interleaveRoundRobinsOverAllPoolsInIndexOrder() {
        PlacementPolicy il = create(new InterleavePlacementProvider(), FakeContext.agarwal(1), Map.of());
        int[] count = new int[2];
        for (long vpn = 100; vpn < 10_100; vpn++) count[il.choosePool(vpn, ALLOC, 0)]++;
        assertArrayEquals(new int[]{5000, 5000}, count, "50C-50B");
        assertEquals(0, il.choosePool(100, ALLOC, 0));
        assertEquals(1, il.choosePool(101, ALLOC, 0));
        assertEquals(il.choosePool(7, ALLOC, 0), il.choosePool(7, ALLOC, -1), "by address, not by toucher");
    }

    @Test
    void interleaveOverANamedSubset() {
        FakeContext ctx = new FakeContext(1, List.of(
                new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 1L << 30),
                new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 1L << 30),
                new PoolInfo(2, "nvm", "NVM", 1, 2, 10e9, 1L << 34)), 1);
        PlacementPolicy il = create(new InterleavePlacementProvider(), ctx, Map.of("pools", "nvm, 0"));
        assertEquals(2, il.choosePool(0, ALLOC, 0));
        assertEquals(0, il.choosePool(1, ALLOC, 0));
        PlacementPolicy bad = create(new InterleavePlacementProvider(), ctx, Map.of("pools", "hbm"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bad.choosePool(0, ALLOC, 0));
        assertTrue(e.getMessage().contains("hbm"));
    }

    @Test
    void ratioSeventyPutsSeventyPercentInTheFastPool() {
        PlacementPolicy r = create(new RatioPlacementProvider(), FakeContext.agarwal(42), Map.of("fast_percent", 70));
        int fast = 0;
        for (long vpn = 0; vpn < 10_000; vpn++) if (r.choosePool(vpn, ALLOC, 0) == 0) fast++;
        assertEquals(7000, fast, 200, "within 2% of 70%");
    }

    @Test
    void ratioIsDeterministicForASeedAndDefaultsToThirtySeventy() {
        RatioPlacementProvider p = new RatioPlacementProvider();
        PlacementPolicy a = create(p, FakeContext.agarwal(7), Map.of());
        PlacementPolicy b = create(p, FakeContext.agarwal(7), Map.of());
        int fast = 0;
        for (long vpn = 0; vpn < 2000; vpn++) {
            int x = a.choosePool(vpn, ALLOC, 0);
            assertEquals(x, b.choosePool(vpn, ALLOC, 0));
            if (x == 0) fast++;
        }
        assertEquals(1400, fast, 100);
    }

    @Test
    void ratioExtremesNeedNoDraw() {
        PlacementPolicy all = create(new RatioPlacementProvider(), FakeContext.agarwal(3), Map.of("fast_percent", 100));
        PlacementPolicy none = create(new RatioPlacementProvider(), FakeContext.agarwal(3), Map.of("fast_percent", 0));
        for (long vpn = 0; vpn < 1000; vpn++) {
            assertEquals(0, all.choosePool(vpn, ALLOC, 0));
            assertEquals(1, none.choosePool(vpn, ALLOC, 0));
        }
        assertThrows(IllegalArgumentException.class,
                () -> Params.validate(new RatioPlacementProvider().parameters(), Map.of("fast_percent", 120)));
    }

    @Test
    void ratioSplitsTheSlowShareByBandwidthOverSeveralPools() {
        FakeContext ctx = new FakeContext(1, List.of(
                new PoolInfo(0, "ddr", "DDR4", 1, 4, 60e9, 1L << 30),
                new PoolInfo(1, "hbm", "HBM2", 0, 8, 400e9, 1L << 30),
                new PoolInfo(2, "nvm", "NVM", 1, 2, 20e9, 1L << 34)), 5);
        PlacementPolicy r = create(new RatioPlacementProvider(), ctx, Map.of("fast_percent", 60));
        int[] count = new int[3];
        for (long vpn = 0; vpn < 20_000; vpn++) count[r.choosePool(vpn, ALLOC, 0)]++;
        assertEquals(12_000, count[1], 400, "fastest pool is hbm (index 1)");
        assertEquals(6_000, count[0], 400, "75% of the rest by bandwidth 60:20");
        assertEquals(2_000, count[2], 300);
    }

    /** Seed 004's machine: every pool a GPU memory, every page placed by the interleave slot; local (the default) stays. */
    @Test
    void poolChoosingPlacementsAreRefusedWhereTheInterleavePlacesEveryPage() {
        List<PoolInfo> hbm = List.of(new PoolInfo(0, "hbm0", "HBM2", 0, 8, 256e9, 1L << 33), new PoolInfo(1, "hbm1", "HBM2", 1, 8, 256e9, 1L << 33));
        var coda = new org.hmsim.api.policy.RunFacts(hbm, 4096, 2, false, false, List.of());
        for (PolicyProvider p : List.of(new InterleavePlacementProvider(), new RatioPlacementProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, coda), p.name());
            assertTrue(e.getMessage().contains("whose pages the interleave slot places"), e.getMessage());
        }
        var local = new LocalPlacementProvider();
        assertDoesNotThrow(() -> local.check(Params.validate(local.parameters(), Map.of()), coda));
    }
}
