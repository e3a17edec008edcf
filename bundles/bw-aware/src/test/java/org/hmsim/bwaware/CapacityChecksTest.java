package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Issue 5 check 3 (seed 000 Figs. 4.5, 4.9, 4.11 / C7-C9): GDDR holds ~10 % of a skewed workload's
 * footprint. BW-AWARE and hints get frames in the host's order ({@code touch_order: host}: the inputs are
 * copied in before the first kernel), so a hotness-blind policy gets no help from the kernels' access order.
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
     * xsbench-lite (examples/workloads): ~2.5 MB, Zipf-skewed independent lookups, GDDR 224 KB. The printed
     * post-cache CDF is the oracle's profile. hints is printed, not asserted: GetAllocation decides per
     * allocation and the hot pages are spread inside one large allocation, so hints cannot follow them — the
     * thesis's own limit (§4.4.5: "high variance within a single data structure").
     *
     * <p>Disabled: it does not hold with the L2 set-index fix (0fc27a2), at any L2 size or input size tried.
     * Before the fix (the L2 used an eighth of its sets for short reuse windows; hit rate 67 %) it measured:
     * hottest 10 % of pages 59 % of DRAM accesses, bw-aware 55.0 us (GDDR share 28 %), oracle 47.2 us (60 %).
     * Now:
     * <ul>
     * <li>1 MB L2 (the preset): the L2 holds the Zipf head (hit rate 85 %, thesis Table 2.1: 63 %); hottest
     * 10 % of pages 28 %; DDR 31 % busy; bw-aware 46.5 us, oracle 46.7 us. With a larger nuclide grid (16 MB,
     * 32 MB, 64 MB) the skew is back (65/71/76 %) and the oracle puts 70-75 % of the traffic in GDDR against
     * bw-aware's 36-43 %, but the lookups are not DRAM-bound (DDR 7-27 % busy, L2 hit rate 70-74 %): both run
     * the same time (within 1 %).
     * <li>Smaller L2 (per slice 64/48/44/40/32/16/8/4/2 KB): at 40 KB the hit rate is the thesis's (62 %),
     * skew 47 %, oracle 1.08x (60.3 vs 65.4 us), GDDR share 36 vs 26 %. The oracle is at most 1.26x faster
     * (16 KB, hit rate 27 %, skew 63 %), and its GDDR-share lead is at most 17 points: host order fills
     * GDDR from the front of the address space, and xsbench-lite keeps its hot nuclide points first, so
     * bw-aware already holds most of the post-cache hot pages whenever the L2 is small enough to make the
     * kernel DRAM-bound.
     * </ul>
     * A bigger uniform energy grid (4 MB, allocated first) makes bw-aware fill GDDR with cold pages (share
     * 8-9 %) and the oracle 1.10-1.14x faster, but flattens the post-cache profile (hottest 10 % of pages
     * 24-26 %); at 16 MB the oracle gains nothing.
     * C8 (oracle well ahead of bw-aware at 10 % capacity) is checked on bfs: {@link #hintsRecoverMostOfTheOracleGainOnBfs}.
     */
    @Disabled("does not hold with the fixed L2 at any L2 or input size tried: see the comment; C8 is checked on bfs")
    @Test
    void oracleBeatsBwAwareOnASkewedLookupKernel() {
        MachineConfig m = Sim.machine("agarwal-ch4", "pools.0.capacity", "224KB");
        RunResult[] r = Sim.parallel(() -> Sim.placement("bw-aware", "touch_order", "host").run(m, xs()),
                () -> Sim.placement("oracle").run(m, xs()), () -> Sim.placement("hints", "touch_order", "host").run(m, xs()));
        RunResult bw = r[0], oracle = r[1], hints = r[2];
        var st = oracle.stats();
        System.out.printf("check 3 xsbench-lite post-cache CDF: hottest 1/5/10/20/50 %% of pages carry %.0f/%.0f/%.0f/%.0f/%.0f %% of DRAM accesses%n",
                100 * st.get("policy.placement.profile_hottest_1pct_share"), 100 * st.get("policy.placement.profile_hottest_5pct_share"),
                100 * st.get("policy.placement.profile_hottest_10pct_share"), 100 * st.get("policy.placement.profile_hottest_20pct_share"),
                100 * st.get("policy.placement.profile_hottest_50pct_share"));
        System.out.printf("check 3 xsbench-lite @10%% GDDR: %s; %s; %s; oracle/bw-aware speedup %.2fx%n",
                line("bw-aware", bw), line("oracle", oracle), line("hints", hints), bw.simTimeNs() / oracle.simTimeNs());
        assertTrue(st.get("policy.placement.profile_hottest_10pct_share") > 0.45, "the lookup kernel should stay skewed after the caches");
        assertTrue(gddrShare(oracle) > gddrShare(bw) + 0.2, "the oracle should put far more of the traffic in GDDR");
        assertTrue(oracle.simTimeNs() < 0.9 * bw.simTimeNs(), "the oracle should clearly beat bw-aware at 10 % capacity");
    }

    private static Workload xs() { return Sim.file("xsbench-lite", "grid_points", 16384L, "lookups", 12L, "n", 8192L); }

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

    /** touch_order host hands out frames in address order: the first 10 % of the footprint fills GDDR. */
    @Test
    void hostTouchOrderFillsTheFastPoolInAddressOrder() {
        MachineConfig m = Sim.machine("agarwal-ch4", "pools.0.capacity", "64KB");
        RunResult r = Sim.placement("bw-aware", "touch_order", "host").run(m, Sim.workload("stream", "elements", 32768));
        assertTrue(r.metrics().get("pool.gddr.pages") == 16, "GDDR full");
        assertTrue(r.metrics().get("pool.ddr.pages") >= 80, "the rest spilled");
    }
}
