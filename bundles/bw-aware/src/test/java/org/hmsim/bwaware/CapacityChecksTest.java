package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 5 check 3 (seed 000 Figs. 4.5, 4.9, 4.11 / C7-C9): GDDR holds ~10 % of a skewed workload's
 * footprint. BW-AWARE and hints get frames in the host's order ({@code touch_order: host}: the inputs are
 * copied in before the first kernel), so a hotness-blind policy gets no help from the kernels' access order.
 *
 * <p>C8 is checked on bfs. It no longer holds on xsbench-lite (examples/workloads) since the L2 set-index fix:
 * at any L2 size or input size tried the lookups are either caught by the L2 or not DRAM-bound, and the
 * oracle's lead over bw-aware stays below 1.3x (docs/mechanisms/bw-aware.md: C7-C9, with the whole sweep).
 */
class CapacityChecksTest {

    static double gddrShare(RunResult r) {
        double g = r.metrics().get("pool.gddr.bytes"), d = r.metrics().get("pool.ddr.bytes");
        return g / (g + d);
    }

    static String line(String name, RunResult r) {
        return String.format("%s %.1f us (GDDR share %.2f, DDR %.0f KB)", name, r.simTimeNs() / 1000, gddrShare(r), r.metrics().get("pool.ddr.bytes") / 1024);
    }

    /**
     * C8/C9 on bfs (seed 000 Figs. 4.6, 4.9, 4.11): the thesis's bfs input (Rodinia graph1MW_6: 1 M nodes,
     * degree 6, ~39 MB) is ~40x its 1 MB L2, and d_graph_visited, d_updating_graph_mask and d_cost carry
     * ~80 % of the DRAM traffic in ~20 % of the footprint. At test scale (16,384 nodes, degree 6: 640 KB,
     * 1/64 of it) the L2 and L1 are scaled down with the footprint ({@link #scaledCaches}) so that the
     * footprint-to-cache ratio, and with it the post-cache skew, is the thesis's. GDDR holds 10 % of the
     * footprint. hints ranks allocations by profiled accesses per byte and fills GDDR in that order
     * (GetAllocation, default fit: spill).
     */
    @Test
    void hintsRecoverMostOfTheOracleGainOnBfs() {
        Workload bfs = bfsThesisShape();
        MachineConfig m = scaledCaches("pools.0.capacity", tenPercentOf(bfs));
        RunResult[] r = Sim.parallel(() -> Sim.placement("oracle").run(m, bfsThesisShape()),
                () -> Sim.placement("bw-aware", "touch_order", "host").run(m, bfsThesisShape()),
                () -> Sim.placement("hints", "touch_order", "host").run(m, bfsThesisShape()));
        RunResult oracle = r[0], bw = r[1], hints = r[2];
        var st = oracle.stats();
        double recovered = (bw.simTimeNs() - hints.simTimeNs()) / (bw.simTimeNs() - oracle.simTimeNs());
        System.out.printf("check 3 bfs (cache-scaled) post-cache CDF: hottest 1/5/10/20/50 %% of pages carry %.0f/%.0f/%.0f/%.0f/%.0f %% of DRAM accesses%n",
                100 * st.get("policy.placement.profile_hottest_1pct_share"), 100 * st.get("policy.placement.profile_hottest_5pct_share"),
                100 * st.get("policy.placement.profile_hottest_10pct_share"), 100 * st.get("policy.placement.profile_hottest_20pct_share"),
                100 * st.get("policy.placement.profile_hottest_50pct_share"));
        System.out.printf("check 3 bfs @10%% GDDR: %s; %s; %s; oracle/bw-aware %.2fx, hints recovers %.0f %% of the oracle's gain (%.0f %% of oracle)%n",
                line("bw-aware", bw), line("oracle", oracle), line("hints", hints), bw.simTimeNs() / oracle.simTimeNs(), 100 * recovered,
                100 * oracle.simTimeNs() / hints.simTimeNs());
        System.out.printf("check 3 bfs hints: %s%n", hintsOf(hints));
        assertTrue(st.get("policy.placement.profile_hottest_10pct_share") > 0.4, "bfs should be skewed after the (scaled) caches");
        assertTrue(oracle.simTimeNs() < 0.9 * bw.simTimeNs(), "the oracle should clearly beat bw-aware at 10 % capacity");
        assertTrue(hints.simTimeNs() < bw.simTimeNs(), "hints should beat bw-aware (thesis: in all cases)");
        assertTrue(recovered > 0.6, "hints should recover most of the oracle's gain (thesis: 90 % of oracle)");
    }

    /** The thesis's bfs graph shape (degree 6, as Rodinia graph1MW_6) at 1/64 of its size. */
    static Workload bfsThesisShape() { return Sim.workload("bfs", "nodes", 16_384, "degree", 6); }

    /**
     * agarwal-ch4 with the L2 and L1 scaled by the footprint's scale (1/64 of the thesis's ~39 MB bfs: L2
     * 2 KB per slice = 16 KB; L1 512 B, one set of four 128 B lines — 1/32, the smallest the 4-way L1
     * allows), so that the per-node arrays do not fit in the L2, as at the thesis's size.
     */
    static MachineConfig scaledCaches(Object... more) {
        Object[] o = new Object[4 + more.length];
        o[0] = "gpu.l2.size";
        o[1] = "2KB";
        o[2] = "gpu.l1.size";
        o[3] = "512B";
        System.arraycopy(more, 0, o, 4, more.length);
        return Sim.machine("agarwal-ch4", o);
    }

    /** 10 % of a workload's footprint, rounded up to whole 4 KB pages. */
    static String tenPercentOf(Workload w) {
        long pages = 0;
        for (var a : w.allocations()) pages += (a.bytes() + 4095) / 4096;
        return ((pages + 9) / 10) * 4 + "KB";
    }

    static String hintsOf(RunResult r) {
        StringBuilder sb = new StringBuilder();
        r.stats().forEach((k, v) -> {
            if (k.startsWith("policy.placement.hint.")) sb.append(k.substring(22)).append('=').append(new String[] {"-", "BO", "CO", "BW"}[v.intValue()]).append(' ');
        });
        return sb.toString().trim();
    }

    /**
     * bfs at the thesis's footprint-to-cache ratio needs ~10 MB, which takes minutes: {@code -Dhmsim.slow=true}.
     * At 1-2 MB the hot per-node arrays fit in the 1 MB L2 and the post-cache profile is flat (32,768 nodes
     * x 4: hottest 10 % of pages 24 % of accesses), so there is nothing for an oracle to find.
     */
    @Test
    void bfsAtScale() {
        Assumptions.assumeTrue(Boolean.getBoolean("hmsim.slow"), "slow check: -Dhmsim.slow=true");
        MachineConfig m = Sim.machine("agarwal-ch4", "pools.0.capacity", "940KB");
        RunResult bw = Sim.placement("bw-aware", "touch_order", "host").run(m, Sim.workload("bfs", "nodes", 65536, "degree", 32));
        RunResult oracle = Sim.placement("oracle").run(m, Sim.workload("bfs", "nodes", 65536, "degree", 32));
        RunResult hints = Sim.placement("hints", "touch_order", "host").run(m, Sim.workload("bfs", "nodes", 65536, "degree", 32));
        System.out.printf("check 3 bfs @10%% GDDR: %s; %s; %s; hottest 10 %% of pages %.0f %% of accesses%n", line("bw-aware", bw),
                line("oracle", oracle), line("hints", hints), 100 * oracle.stats().get("policy.placement.profile_hottest_10pct_share"));
        assertTrue(oracle.simTimeNs() < bw.simTimeNs(), "oracle should beat bw-aware");
    }

    /** The profiling pass and the oracle work end to end on a small run (fast): the oracle puts the hot arrays in GDDR. */
    @Test
    void oracleUsesTheProfilingPass() {
        MachineConfig m = Sim.machine("agarwal-ch4", "pools.0.capacity", "128KB");
        var r = Sim.placement("oracle").run(m, Sim.workload("bfs", "nodes", 4096));
        assertTrue(r.stats().get("policy.placement.oracle_pages") > 0, "the oracle got a profile and chose hot pages");
        var h = Sim.placement("hints").run(m, Sim.workload("bfs", "nodes", 4096));
        assertTrue(h.stats().containsKey("policy.placement.hotness.graph_mask"), "the hint profiler publishes per-allocation hotness");
    }

    /**
     * With ample GDDR the oracle's bandwidth target is what stops it (seed 000 §2.3, Ch. 5's definition): it fills the
     * fastest pool with the hottest pages only until they carry b_fast/Σb of the profiled accesses, and leaves the rest
     * in DDR so both pools' bandwidth is used. The other oracle checks run at 10 % capacity, where room runs out first:
     * there filling GDDR to its capacity or to its share is the same run. The target here is computed from the machine.
     */
    @Test
    void withAmpleCapacityTheOracleStopsAtTheBandwidthShare() {
        MachineConfig m = Sim.machine("agarwal-ch4");
        double fast = 0, sum = 0;
        for (var p : m.pools()) {
            fast = Math.max(fast, p.bytesPerSecond());
            sum += p.bytesPerSecond();
        }
        double target = fast / sum;
        for (Workload w : new Workload[] {Sim.workload("stream", "elements", 32768), Sim.workload("bfs", "nodes", 4096)}) {
            RunResult r = Sim.placement("oracle").run(m, w);
            double planned = r.stats().get("policy.placement.oracle_planned_fast_share");
            double gddrPages = r.metrics().get("pool.gddr.pages"), ddrPages = r.metrics().get("pool.ddr.pages");
            System.out.printf("oracle, ample GDDR, %s: planned fast share %.3f (target %.3f), pages GDDR %.0f DDR %.0f, %s%n",
                    w.name(), planned, target, gddrPages, ddrPages, line("oracle", r));
            assertTrue(gddrPages * 10 < m.pools().get(0).capacityBytes() / 4096, "the case: GDDR has room for every page");
            // the share overshoots the target by at most the last page taken (pages here each carry a few per cent)
            assertTrue(planned >= target && planned < target + 0.05, w.name() + ": planned fast-pool share " + planned + " near " + target);
            // and the run's DRAM traffic is split between the pools, not all in GDDR (the profile is the same run's, so
            // it lands near the target; a page the profile never saw reach DRAM goes to DDR and costs it nothing)
            assertTrue(gddrShare(r) < target + 0.1, w.name() + ": GDDR's share of the DRAM bytes " + gddrShare(r));
        }
    }

    /** touch_order host hands out frames in address order: the first 10 % of the footprint fills GDDR. */
    @Test
    void hostTouchOrderFillsTheFastPoolInAddressOrder() {
        MachineConfig m = Sim.machine("agarwal-ch4", "pools.0.capacity", "64KB");
        RunResult r = Sim.placement("bw-aware", "touch_order", "host").run(m, Sim.workload("stream", "elements", 32768));
        assertTrue(r.metrics().get("pool.gddr.pages") == 16, "GDDR full");
        assertTrue(r.metrics().get("pool.ddr.pages") >= 80, "the rest spilled");
        assertTrue(r.stats().get("os.host_maps") > 0, "pages were mapped ahead of the GPU's touches (HostTouchOrder's order is unit-tested)");
    }
}
