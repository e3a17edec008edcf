package org.hmsim.bwaware.migration;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/**
 * Page migration on a machine with a CPU side is refused at validation: the CPU caches and the CPU-GPU directory would
 * keep the old frame's lines (a review ran TH(1) beside apu-kmeans's host phases: 561 migrations, nothing dropped).
 */
class MigrationNeedsNoCpuSideTest {
    @Test
    void everyMigrationPolicyRefusesAMachineWithACpuSide() {
        RunFacts withCpu = new RunFacts(List.of(), 4096, 1, false, true, List.of());
        RunFacts gpuOnly = new RunFacts(List.of(), 4096, 1, false, false, List.of());
        for (PolicyProvider p : List.of(new ThresholdProvider(), new RangeExpansionProvider(), new BandwidthBalancingProvider(), new CopyFirstProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, withCpu), p.name());
            assertTrue(e.getMessage().startsWith("migration " + p.name() + " moves pages between frames, and this machine has a cpu: section"), e.getMessage());
            assertDoesNotThrow(() -> p.check(params, gpuOnly), p.name());
        }
    }

    /** Nor demand paging: its driver owns the GPU's frames (such a run passed validation and failed mid-way, found by a stress test). */
    @Test
    void everyMigrationPolicyRefusesAMachineWithDemandPaging() {
        RunFacts paged = new RunFacts(List.of(), 4096, 1, true, false, List.of());
        for (PolicyProvider p : List.of(new ThresholdProvider(), new RangeExpansionProvider(), new BandwidthBalancingProvider(), new CopyFirstProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, paged), p.name());
            assertTrue(e.getMessage().startsWith("migration " + p.name() + " moves pages between pools, and this machine has a uvm: section"), e.getMessage());
        }
    }

    /** Seed 000's migrations serve one program (kernel 0 its start, one fastest pool): a multiprogrammed mix is refused (a review saw copy-first charge program 0 for every program's copy). */
    @Test
    void everyMigrationPolicyRefusesAMix() {
        RunFacts mix = new RunFacts(List.of(), 4096, 2, false, false, List.of(), 2);
        for (PolicyProvider p : List.of(new ThresholdProvider(), new RangeExpansionProvider(), new BandwidthBalancingProvider(), new CopyFirstProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, mix), p.name());
            assertTrue(e.getMessage().contains("mix of 2 programs"), e.getMessage());
        }
    }

    /** Nor several GPUs: every page would move to one GPU's memory (a trial's copy-first filled g0 and left g1 empty). */
    @Test
    void everyMigrationPolicyRefusesAMachineOfSeveralGpus() {
        var g0 = new org.hmsim.api.machine.PoolInfo(0, "g0", "gddr5", 0, 8, 200e9, 4L << 30);
        var g1 = new org.hmsim.api.machine.PoolInfo(1, "g1", "gddr5", 1, 8, 200e9, 4L << 30);
        var ddr = new org.hmsim.api.machine.PoolInfo(2, "ddr", "ddr4", 2, 4, 80e9, 16L << 30);
        RunFacts twoGpus = new RunFacts(List.of(g0, g1, ddr), 4096, 2, false, false, List.of());
        for (PolicyProvider p : List.of(new ThresholdProvider(), new RangeExpansionProvider(), new BandwidthBalancingProvider(), new CopyFirstProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, twoGpus), p.name());
            assertTrue(e.getMessage().startsWith("migration " + p.name() + " moves pages towards the machine's one fastest pool, and this machine has 2 GPUs"),
                    e.getMessage());
        }
    }

    /** Nor one pool, where there is nowhere to move a page (a researcher's threshold ran there with 0 migrations, exit 0). */
    @Test
    void everyMigrationPolicyRefusesAMachineWithOnePool() {
        var gddr = new org.hmsim.api.machine.PoolInfo(0, "gddr", "gddr5", 0, 8, 200e9, 4L << 30);
        RunFacts onePool = new RunFacts(List.of(gddr), 4096, 1, false, false, List.of());
        for (PolicyProvider p : List.of(new ThresholdProvider(), new RangeExpansionProvider(), new BandwidthBalancingProvider(), new CopyFirstProvider())) {
            Params params = Params.validate(p.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(params, onePool), p.name());
            assertTrue(e.getMessage().equals("migration " + p.name() + " moves pages between pools, and this machine has one pool (gddr): it would act on nothing"),
                    e.getMessage());
        }
    }
}
