package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Issue 5 check 4 (seed 000 Ch. 5): data starts in CPU DDR; kmeans (one iteration over its points, during which the pages migrate; one keeps the suite fast) on
 * agarwal-ch4 with the realistic 100-cycle shootdown and a smaller L2 ({@link #M}).
 */
class MigrationChecksTest {
    /**
     * agarwal-ch4 with 44 KB per L2 slice (352 KB instead of 1 MB), at which DDR-only kmeans hits its L2 27 % of
     * the time, as the thesis's kmeans does (29.5 %, seed 000 Table 2.1: it re-reads its features from DRAM).
     * A warp re-reads its points' 35 lines once per cluster; under the preset's GTO warp scheduler the lines
     * the resident warps re-read fit in a 1 MB L2 at any input size (8,192, 32,768 and 65,536 points all read
     * their features from DRAM once, L2 hit rate 76-78 %), so on the full preset kmeans is not DRAM-bound (DDR
     * 15 % busy) and page migration has nothing to win: DDR-only 95 us, TH(1) 103, TH(32) 95 (no page
     * reaches 32 touches).
     * With 48 KB per slice the hit rate is 38 %; with 32 KB 6 %.
     */
    static final MachineConfig M = Sim.machine("agarwal-ch4", "gpu.l2.size", "44KB");

    static RunResult run(String placement, String migration, Object... params) {
        return Sim.placement(placement).with(Slot.MIGRATION, migration, params).run(M, Sim.workload("kmeans", "iterations", 1));
    }

    static double shootdowns(RunResult r) { return r.stats().get("gpu0.tlb.shootdowns"); }

    static double gddrShare(RunResult r) {
        double g = r.metrics().get("pool.gddr.bytes"), d = r.metrics().get("pool.ddr.bytes");
        return g / (g + d);
    }

    @Test
    void aggressiveMigrationWithRangeExpansionAndBalancing() {
        RunResult[] r = Sim.parallel(() -> run("ddr-only", "none"), () -> run("ddr-only", "copy-first"),
                () -> run("ddr-only", "threshold", "threshold", 1), () -> run("ddr-only", "threshold", "threshold", 32),
                () -> run("ddr-only", "range-expansion", "range", 64), () -> run("ddr-only", "bandwidth-balancing"));
        RunResult ddrOnly = r[0], copy = r[1], th1 = r[2], th32 = r[3], re = r[4], bwb = r[5];
        System.out.printf("check 4 kmeans: ddr-only %.0f, copy-first %.0f, TH1 %.0f, TH32 %.0f, TH1+RE64 %.0f, TH1+RE128+BWB %.0f ns%n",
                ddrOnly.simTimeNs(), copy.simTimeNs(), th1.simTimeNs(), th32.simTimeNs(), re.simTimeNs(), bwb.simTimeNs());
        System.out.printf("check 4 shootdowns/migrations: TH1 %.0f/%.0f, RE %.0f/%.0f, BWB %.0f/%.0f; GDDR share TH1 %.3f RE %.3f BWB %.3f%n",
                shootdowns(th1), th1.metrics().get("migrations"), shootdowns(re), re.metrics().get("migrations"),
                shootdowns(bwb), bwb.metrics().get("migrations"), gddrShare(th1), gddrShare(re), gddrShare(bwb));
        // C11: first touch beats a large threshold
        assertTrue(th1.simTimeNs() < 0.8 * th32.simTimeNs(), "TH(1) should clearly beat TH(32)");
        // C13/C14: range expansion migrates untranslated neighbours, so fewer shootdowns, and is not slower
        assertTrue(shootdowns(re) < 0.8 * shootdowns(th1), "range expansion should remove a large share of shootdowns");
        assertTrue(re.simTimeNs() <= 1.01 * th1.simTimeNs(), "range expansion should not be slower than TH(1)");
        // C15 on a sweeping kernel: balancing samples every 10,000 cycles and throttles (half rate / pause) once the
        // GDDR share passes r* - 5 %, but kmeans's share per sample follows where its sweep is relative to the
        // migrated pages, and the 280-page footprint moves in a few samples, so balancing mostly delays migration
        // here. Holding the share near 71.4 % is checked on a kernel whose accesses cover its footprint all the
        // time: BalancingCheckTest.
        double throttled = bwb.stats().get("policy.migration.balance_half") + bwb.stats().get("policy.migration.balance_pause");
        System.out.printf("check 4 BWB samples: full %.0f, half %.0f, pause %.0f%n", bwb.stats().get("policy.migration.balance_full"),
                bwb.stats().get("policy.migration.balance_half"), bwb.stats().get("policy.migration.balance_pause"));
        assertTrue(throttled > 0, "balancing should throttle migration once GDDR carries its share");
        // C16: TH(1)+RE+BWB well above DDR-only and near copy-first
        assertTrue(ddrOnly.simTimeNs() / bwb.simTimeNs() > 1.3, "TH+RE+BWB should be well above DDR-only");
        assertTrue(bwb.simTimeNs() < 1.1 * copy.simTimeNs(), "TH+RE+BWB should be near copy-first");
    }

    /** Pages the GPU never translated move without a shootdown (copy-first copies before any kernel). */
    @Test
    void untranslatedPagesCostNoShootdown() {
        RunResult copy = Sim.placement("ddr-only").with(Slot.MIGRATION, "copy-first").run(M, Sim.workload("stream", "elements", 50_000));
        assertTrue(copy.metrics().get("migrations") > 0);
        assertTrue(shootdowns(copy) == 0, "copy-first before the first kernel must cost no shootdown");
    }

    /**
     * Hotspot under range expansion still has hundreds of pages queued when its last kernel ends. None of them moves
     * for a program that has gone: the queue is dropped ({@code unmoved_at_end}) and only the copies in flight complete.
     * Until 2026-11-29 they all moved while the machine drained: 768 migrations against 508 now, with the DRAM bytes
     * and energy of the extra 260 copies in the results. The copies in flight at the end still move bytes after it:
     * the pool's bandwidth is taken over the time they took (over the run alone DDR once showed 1.03 of its peak).
     */
    @Test
    void noPageCopyStartsAfterTheWorkloadHasEnded() {
        RunResult r = Sim.placement("ddr-only").with(Slot.MIGRATION, "range-expansion", "range", 64)
                .run(Sim.machine("agarwal-ch4"), Sim.workload("hotspot", "iterations", 4));
        double unmoved = r.stats().get("policy.migration.unmoved_at_end"), started = r.stats().get("policy.migration.started");
        double completed = r.stats().get("policy.migration.completed"), migrations = r.metrics().get("migrations");
        double util = r.metrics().get("pool.ddr.utilisation");
        System.out.printf("hotspot RE64: %.0f started, %.0f completed, %.0f left queued at the end; DDR %.3f of peak%n", started, completed, unmoved, util);
        assertTrue(unmoved > 100, "the case: the migrator's queue is long at the run's end (" + unmoved + ")");
        assertEquals(started, completed, "every copy started completes");
        assertEquals(completed, migrations, "the OS moved exactly the pages the policy started");
        assertTrue(util <= 1.0, "a pool cannot exceed its peak bandwidth (" + util + ")");
    }
}
