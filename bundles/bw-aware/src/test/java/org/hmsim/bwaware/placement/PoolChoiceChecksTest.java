package org.hmsim.bwaware.placement;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/**
 * Where every pool is one of several GPU memories (seed 004's machine) the interleave slot places every page, so seed
 * 000's placements would act on nothing: refused at validation (a review found them accepted on coda.yaml).
 */
class PoolChoiceChecksTest {
    private static final long GB = 1L << 30;

    private static List<PoolInfo> gpuMemories(int gpus) {
        List<PoolInfo> pools = new ArrayList<>();
        for (int g = 0; g < gpus; g++) pools.add(new PoolInfo(g, "hbm" + g, "HBM2", g, 8, 256e9, 8 * GB));
        return pools;
    }

    @Test
    void seedZeroPlacementsAreRefusedWhereTheInterleavePlacesEveryPage() {
        RunFacts coda = new RunFacts(gpuMemories(4), 4096, 4, false, false, List.of());
        List<PoolInfo> withHost = new ArrayList<>(gpuMemories(4));
        withHost.add(new PoolInfo(4, "ddr", "DDR4", 4, 4, 80e9, 64 * GB));
        RunFacts codaWithHost = new RunFacts(withHost, 4096, 4, false, false, List.of());
        for (PolicyProvider p : List.of(new BwAwarePlacementProvider(), new OraclePlacementProvider(), new DdrOnlyPlacementProvider(), new HintsPlacementProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, coda), p.name());
            assertTrue(e.getMessage().startsWith(p.name() + " chooses the pool of a page, and every pool of this machine is one of its 4 GPU memories"), e.getMessage());
            // with a CPU memory beside them the choice matters (GPU memories or host): the check lets it pass
            assertDoesNotThrow(() -> p.check(params, codaWithHost), p.name());
        }
    }

    /**
     * With one pool there is nothing to choose, and under demand paging the driver maps every page into GPU memory:
     * ratio's fast_percent 0 and 100 gave the same run on frc-rx540 (review of silent inputs).
     */
    @Test
    void placementsAreRefusedWhereThereIsNoPoolToChoose() {
        List<PoolInfo> one = List.of(new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 8 * GB));
        List<PoolInfo> two = List.of(one.get(0), new PoolInfo(1, "host", "DDR4", 1, 4, 80e9, 64 * GB));
        for (PolicyProvider p : List.of(new BwAwarePlacementProvider(), new OraclePlacementProvider(), new DdrOnlyPlacementProvider(),
                new HintsPlacementProvider(), new org.hmsim.baseline.placement.RatioPlacementProvider(), new org.hmsim.baseline.placement.InterleavePlacementProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var single = assertThrows(IllegalArgumentException.class, () -> p.check(params, new RunFacts(one, 4096, 1, false, false, List.of())), p.name());
            assertTrue(single.getMessage().startsWith(p.name() + " chooses the pool of a page, and this machine has one pool (gddr)"), single.getMessage());
            var uvm = assertThrows(IllegalArgumentException.class, () -> p.check(params, new RunFacts(two, 65536, 1, true, false, List.of())), p.name());
            assertTrue(uvm.getMessage().contains("has a uvm: section, whose driver maps every page the GPU touches into GPU memory"), uvm.getMessage());
            assertDoesNotThrow(() -> p.check(params, new RunFacts(two, 4096, 1, false, false, List.of())), p.name());
            // with a CPU side the CPU's first touches are placed: a choice where the CPU has two pools (a trial's DDR + NVM)
            var oneHostPool = assertThrows(IllegalArgumentException.class, () -> p.check(params, new RunFacts(two, 65536, 1, true, true, List.of())), p.name());
            assertTrue(oneHostPool.getMessage().contains("and the CPU's first touches go to its one pool"), oneHostPool.getMessage());
            List<PoolInfo> twoHostPools = List.of(one.get(0), two.get(1), new PoolInfo(2, "nvm", "NVM", 1, 4, 20e9, 64 * GB));
            assertDoesNotThrow(() -> p.check(params, new RunFacts(twoHostPools, 65536, 1, true, true, List.of())), p.name());
        }
    }

    /** Oracle ranks one program's pages by its profile: in a mix it would rank every program's pages together. */
    @Test
    void oracleIsRefusedForAMix() {
        List<PoolInfo> pools = List.of(new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 8 * GB), new PoolInfo(1, "gddr1", "GDDR5", 1, 8, 200e9, 8 * GB),
                new PoolInfo(2, "ddr", "DDR4", 2, 4, 80e9, 64 * GB));
        var oracle = new OraclePlacementProvider();
        Params params = Params.validate(oracle.parameters(), Map.of());
        var e = assertThrows(IllegalArgumentException.class, () -> oracle.check(params, new RunFacts(pools, 4096, 2, false, false, List.of(), 2)));
        assertTrue(e.getMessage().contains("mix of 2 programs"), e.getMessage());
        assertDoesNotThrow(() -> oracle.check(params, new RunFacts(pools, 4096, 2, false, false, List.of())));
    }

    /** Every placement that reads bandwidths checks them at validation; oracle's passed and failed its runs mid-study (a bad-input trial). */
    @Test
    void badBandwidthsAreRefusedBeforeAnyRun() {
        for (PolicyProvider p : List.of(new BwAwarePlacementProvider(), new OraclePlacementProvider(), new HintsPlacementProvider())) {
            Params abc = Params.validate(p.parameters(), Map.of("bandwidths", "gddr=abc"));
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(abc), p.name());
            assertTrue(e.getMessage().contains("'abc' is not a bandwidth"), p.name() + ": " + e.getMessage());
            List<PoolInfo> two = new ArrayList<>(gpuMemories(1));
            two.add(new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 64 * GB));
            RunFacts facts = new RunFacts(two, 4096, 1, false, false, List.of());
            Params unknown = Params.validate(p.parameters(), Map.of("bandwidths", "zzz=5GB/s"));
            var u = assertThrows(IllegalArgumentException.class, () -> p.check(unknown, facts), p.name());
            assertTrue(u.getMessage().contains("zzz"), p.name() + ": " + u.getMessage());
        }
    }
}
