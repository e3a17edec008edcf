package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Issue 5, C15 (seed 000 Figs. 5.6-5.8): plotted per 10,000-cycle sample, TH+RE overshoots the 71.4 % GDDR
 * share of the traffic and TH+RE+BWB stays near it. Data start in DDR (agarwal-ch4, 100-cycle shootdowns).
 *
 * <p>The effect needs a kernel whose accesses are spread over its whole footprint all the time (then the
 * GDDR share follows the fraction of the traffic already migrated) and that runs several times longer than
 * migrating the footprint takes. xsbench-lite with 96 lookups per thread: 1,296 pages, ~400 us, random
 * lookups over every table page, ~40 pages migrated per sample (3 % of the footprint, finer than the 5 %
 * band). On a sweeping kernel (kmeans) the per-sample share follows the sweep's position relative to
 * the migrated pages instead, so balancing only delays migration there (see MigrationChecksTest).
 */
class BalancingCheckTest {
    /** 10,000 GPU cycles at 1.4 GHz: the balancing period, so each time-series row is one sample. */
    static final long SAMPLE_PS = 7_142_857L;

    static Workload lookups() { return Sim.file("xsbench-lite", "grid_points", 16384L, "lookups", 96L, "n", 8192L); }

    @Test
    void balancingHoldsTheGddrShareNearItsTarget() {
        MachineConfig m = Sim.machine("agarwal-ch4");
        RunResult[] r = Sim.parallel(
                () -> Sim.placement("ddr-only").with(Slot.MIGRATION, "range-expansion", "range", 128).run(m, lookups(), SAMPLE_PS),
                () -> Sim.placement("ddr-only").with(Slot.MIGRATION, "bandwidth-balancing").run(m, lookups(), SAMPLE_PS));
        RunResult re = r[0], bwb = r[1];
        double[] sRe = demandShares(re), sBwb = demandShares(bwb);
        double target = 200.0 / 280.0;
        double lateRe = meanOfSecondHalf(sRe), lateBwb = meanOfSecondHalf(sBwb);
        System.out.printf("check C15 xsbench-lite: TH1+RE128 %.1f us, TH1+RE128+BWB %.1f us; BWB samples full/half/pause %.0f/%.0f/%.0f%n",
                re.simTimeNs() / 1000, bwb.simTimeNs() / 1000, bwb.stats().get("policy.migration.balance_full"),
                bwb.stats().get("policy.migration.balance_half"), bwb.stats().get("policy.migration.balance_pause"));
        System.out.printf("check C15 GDDR share of demand traffic per 10,000-cycle sample, %%:%n  TH+RE     %s%n  TH+RE+BWB %s%n", pct(sRe), pct(sBwb));
        System.out.printf("check C15 pages migrated per sample:%n  TH+RE     %s%n  TH+RE+BWB %s%n", copies(re), copies(bwb));
        double[] phRe = balancingPhase(re, sRe, target), phBwb = balancingPhase(bwb, sBwb, target);
        System.out.printf("check C15 while migrating (samples from the first at >= r* - 5 %% to the last copy): TH+RE %d samples, max %.1f %%; "
                        + "TH+RE+BWB %d samples, max %.1f %%, min %.1f %%, mean |m - r*| %.1f points%n",
                phRe.length, 100 * max(phRe), phBwb.length, 100 * max(phBwb), 100 * min(phBwb), 100 * meanAbsDev(phBwb, target));
        System.out.printf("check C15 mean over the second half of the run: TH+RE %.1f %%, TH+RE+BWB %.1f %% (target %.1f %%)%n",
                100 * lateRe, 100 * lateBwb, 100 * target);
        assertTrue(max(phRe) > target + 0.2, "TH+RE should overshoot the target while it migrates");
        assertTrue(lateRe > target + 0.15, "TH+RE should stay above the target once the footprint has moved");
        assertTrue(phBwb.length >= 5, "balancing should keep migrating for a while near the target");
        // max measured 79-81 % until the L1's replaced lines cleared the L2's sharer bits (second session of 2026-11-26),
        // 84.7 % since: the phase's last sample (its last 6 copies) already shows the drift up that follows the end of
        // migration (no reverse migration); 83.8 % since migrations drop the old frame's L2 lines (2026-11-27: their
        // write-backs no longer land in DDR), with 29 samples at 66-84 % and a mean deviation of 3.0 points, the check of
        // "near the target"
        assertTrue(max(phBwb) < target + 0.15 && meanAbsDev(phBwb, target) < 0.06,
                "while it migrates, TH+RE+BWB should keep the share near the 71.4 % target");
        assertTrue(lateBwb < lateRe - 0.1, "TH+RE+BWB should overshoot far less than TH+RE");
        assertTrue(bwb.stats().get("policy.migration.balance_pause") > 0, "balancing should pause migration");
    }

    /**
     * The samples while a policy migrates near the target: from the first sample whose share reaches r* - 5 %
     * to the last sample in which a page copy completed (the last, partial row left out).
     */
    static double[] balancingPhase(RunResult r, double[] share, double target) {
        int c = r.seriesNames().indexOf("policy.migration.completed") + 1;
        int from = -1, to = -1;
        double prev = 0;
        for (int i = 0; i < share.length - 1; i++) {
            double[] row = r.seriesRows().get(i);
            if (from < 0 && share[i] >= target - 0.05) from = i;
            if (from >= 0 && row[c] > prev) to = i;
            prev = row[c];
        }
        if (from < 0 || to < from) return new double[0];
        return java.util.Arrays.copyOfRange(share, from, to + 1);
    }

    static double max(double[] s) { return java.util.Arrays.stream(s).max().orElse(-1); }

    static double min(double[] s) { return java.util.Arrays.stream(s).min().orElse(-1); }

    static double meanAbsDev(double[] s, double target) { return java.util.Arrays.stream(s).map(v -> Math.abs(v - target)).average().orElse(1); }

    /**
     * Per time-series row, the GPU memory's share of the demand traffic: the pools' bytes less the page
     * copies completed in that row (4 KB read from DDR and 4 KB written to GDDR each), as the thesis plots
     * the application's bandwidth. -1 for a row without traffic.
     */
    static double[] demandShares(RunResult r) {
        List<String> n = r.seriesNames();
        int g = n.indexOf("series.gddr.bytes") + 1, d = n.indexOf("series.ddr.bytes") + 1, c = n.indexOf("policy.migration.completed") + 1;
        double[] out = new double[r.seriesRows().size()];
        double pg = 0, pd = 0, pc = 0;
        for (int i = 0; i < out.length; i++) {
            double[] row = r.seriesRows().get(i);
            double copy = c > 0 ? (row[c] - pc) * 4096 : 0;
            double dg = Math.max(0, row[g] - pg - copy), dd = Math.max(0, row[d] - pd - copy);
            pg = row[g];
            pd = row[d];
            if (c > 0) pc = row[c];
            out[i] = dg + dd > 0 ? dg / (dg + dd) : -1;
        }
        return out;
    }

    static String copies(RunResult r) {
        int c = r.seriesNames().indexOf("policy.migration.completed") + 1;
        StringBuilder b = new StringBuilder();
        double prev = 0;
        for (double[] row : r.seriesRows()) {
            b.append(String.format("%.0f ", row[c] - prev));
            prev = row[c];
        }
        return b.toString().trim();
    }

    static double meanOfSecondHalf(double[] s) {
        double sum = 0;
        int k = 0;
        for (int i = s.length / 2; i < s.length; i++) {
            if (s[i] < 0) continue;
            sum += s[i];
            k++;
        }
        return k == 0 ? -1 : sum / k;
    }

    static String pct(double[] s) {
        StringBuilder b = new StringBuilder();
        for (double v : s) b.append(v < 0 ? "-" : String.format("%.0f", 100 * v)).append(' ');
        return b.toString().trim();
    }
}
