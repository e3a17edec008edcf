package org.hmsim.coda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Seed 004's reproduction checks (summary §5) on the {@code coda} preset (4 GPUs × 4 SMs, HBM2, 16 GB/s
 * links) with the class models at 256 blocks: direction and rough size, never the paper's exact numbers
 * (our kernels are more memory-bound than the paper's benchmarks, so the gains are larger; see docs/mechanisms/coda.md).
 */
class CodaChecksTest {
    private static final int CTAS = 256;

    /** Runs already made, by machine, workload and configuration: the same run is deterministic, so tests share it. */
    private static final java.util.Map<String, RunResult> MADE = new java.util.concurrent.ConcurrentHashMap<>();

    private static RunResult once(MachineConfig m, String machineKey, String workload, CodaSim.Config c) {
        String key = machineKey + "|" + workload + "|" + c;
        RunResult r = MADE.get(key);
        if (r == null) MADE.put(key, r = CodaSim.run(m, CodaSim.workload(workload, "ctas", CTAS), c));
        return r;
    }

    private static RunResult[] compare(MachineConfig m, String workload, CodaSim.Config a, CodaSim.Config b) {
        String k = m.name() + m.links().stream().map(l -> String.valueOf(l.bytesPerSecondPerDirection())).reduce("", String::concat);
        return CodaSim.parallel(() -> once(m, k, workload, a), () -> once(m, k, workload, b));
    }

    private static double remoteBytes(RunResult r) { return CodaSim.metric(r, "remote_bytes"); }

    private static String line(String what, RunResult base, RunResult x) {
        return String.format("%s: %.0f ns vs %.0f ns (speedup %.2f), remote bytes %.0f vs %.0f (%.0f %%)", what, base.simTimeNs(), x.simTimeNs(),
                base.simTimeNs() / x.simTimeNs(), remoteBytes(base), remoteBytes(x), 100 * (remoteBytes(x) / remoteBytes(base) - 1));
    }

    /**
     * §6.1 / Fig. 10: CODA beats FGP-Only and cuts remote traffic, most on block-exclusive (1.56x, -47 %), less on
     * core-exclusive (1.13x, -34 %), least on sharing (-32 %).
     */
    @Test
    void codaBeatsFgpOnlyMostOnBlockExclusiveLeastOnSharing() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] be = compare(m, "block-exclusive", CodaSim.FGP, CodaSim.CODA);
        RunResult[] ce = compare(m, "core-exclusive", CodaSim.FGP, CodaSim.CODA);
        RunResult[] sh = compare(m, "sharing", CodaSim.FGP, CodaSim.CODA);
        String msg = line("block-exclusive", be[0], be[1]) + "; " + line("core-exclusive", ce[0], ce[1]) + "; " + line("sharing", sh[0], sh[1]);
        System.out.println(msg);
        double beSpeedup = be[0].simTimeNs() / be[1].simTimeNs(), ceSpeedup = ce[0].simTimeNs() / ce[1].simTimeNs(),
                shSpeedup = sh[0].simTimeNs() / sh[1].simTimeNs();
        assertTrue(beSpeedup > 1.3, msg);
        assertTrue(remoteBytes(be[1]) < 0.6 * remoteBytes(be[0]), msg);
        assertTrue(remoteBytes(sh[1]) < remoteBytes(sh[0]), msg);
        assertTrue(shSpeedup >= 0.95 && shSpeedup < ceSpeedup && ceSpeedup < beSpeedup, msg);
        double cut = 1 - remoteBytes(be[1]) / remoteBytes(be[0]), ceCut = 1 - remoteBytes(ce[1]) / remoteBytes(ce[0]),
                shCut = 1 - remoteBytes(sh[1]) / remoteBytes(sh[0]);
        assertTrue(cut > ceCut && ceCut > shCut, msg);
        assertTrue(CodaSim.metric(be[1], "remote_fraction") < CodaSim.metric(be[0], "remote_fraction"), msg);
    }

    /** §6.1: CGP-Only without affinity-matched scheduling gains little or nothing; CODA gains clearly more. */
    @Test
    void cgpOnlyWithoutMatchedSchedulingGainsLittle() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = compare(m, "block-exclusive", CodaSim.FGP, CodaSim.CGP);
        RunResult[] k = compare(m, "core-exclusive", CodaSim.FGP, CodaSim.CGP);
        String msg = line("block-exclusive CGP-only", r[0], r[1]) + "; " + line("core-exclusive CGP-only", k[0], k[1]);
        System.out.println(msg);
        double s1 = r[0].simTimeNs() / r[1].simTimeNs(), s2 = k[0].simTimeNs() / k[1].simTimeNs();
        assertTrue(s1 < 1.15 && s2 < 1.15, msg);
        // pages round-robin do not follow the blocks: remote traffic stays at about (N-1)/N
        assertTrue(CodaSim.metric(r[1], "remote_fraction") > 0.6 && CodaSim.metric(k[1], "remote_fraction") > 0.6, msg);
        for (RunResult cgp : new RunResult[] {r[1], k[1]}) { // and the pages were held whole, round-robin over the memories
            assertEquals(0.0, cgp.stats().get("os.groups.fgp_pages"), msg);
            for (int g = 0; g < 4; g++) assertTrue(cgp.stats().get("os.groups.cgp_pages_mem" + g) > 0, msg);
        }
    }

    /** Fig. 15: affinity scheduling on FGP-Only alone barely moves performance (data are spread anyway). */
    @Test
    void affinityAloneOnFgpIsRoughlyNeutral() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = compare(m, "core-exclusive", CodaSim.FGP, CodaSim.FGP_AFFINITY);
        String msg = line("core-exclusive FGP + affinity", r[0], r[1]);
        System.out.println(msg);
        double s = r[0].simTimeNs() / r[1].simTimeNs();
        assertTrue(s > 0.93 && s < 1.08, msg);
        assertTrue(Math.abs(CodaSim.metric(r[1], "remote_fraction") - CodaSim.metric(r[0], "remote_fraction")) < 0.05, msg);
        // and the scheduler acted: Eq. 1 holds blocks back for their GPU (round-robin never does)
        assertEquals(0.0, r[0].stats().get("grid.held"), msg);
        assertTrue(r[1].stats().get("grid.held") > 0, msg);
    }

    /**
     * Fig. 15's exception: affinity scheduling hurts SAD, whose 61 blocks (§4.3.1) fill only two GPUs' worth of Eq. 1
     * block groups (N_bpg = 32), so two GPUs idle while round-robin spreads the blocks over all 16 SMs. The model is the
     * workload file examples/workloads/sad.yaml (compute-bound, overlapping search windows).
     */
    @Test
    void affinityAloneHurtsSadsSixtyOneBlocks() {
        MachineConfig m = CodaSim.machine("coda");
        var sad = org.hmsim.platform.workloads.file.WorkloadFile.load(org.hmsim.platform.machine.Presets.examples().resolve("workloads/sad.yaml"));
        java.util.function.Supplier<Workload> w = () -> sad.create(org.hmsim.api.policy.Params.validate(sad.parameters(), java.util.Map.of()), 1);
        RunResult[] r = CodaSim.parallel(() -> CodaSim.run(m, w.get(), CodaSim.FGP), () -> CodaSim.run(m, w.get(), CodaSim.FGP_AFFINITY));
        String msg = line("sad FGP + affinity", r[0], r[1]) + String.format(", idle tail %.2f vs %.2f", CodaSim.metric(r[0], "gpu_idle_tail_fraction"),
                CodaSim.metric(r[1], "gpu_idle_tail_fraction"));
        System.out.println(msg);
        assertTrue(r[1].simTimeNs() > 1.25 * r[0].simTimeNs(), msg);
        assertEquals(0.0, r[1].stats().get("grid.gpu2.ctas") + r[1].stats().get("grid.gpu3.ctas"), msg);
        assertTrue(CodaSim.metric(r[0], "cta_imbalance") < 1.1 && CodaSim.metric(r[1], "cta_imbalance") > 1.9, msg);
    }

    /**
     * Fair round-robin gives every GPU the same share of blocks when the GPUs are alike (§2, Fig. 2/3):
     * the links' request and response channels take turns, so no GPU's requests are crowded out by the
     * responses it owes the others (a single FIFO per link direction gave one GPU 1.9x its share).
     */
    @Test
    void roundRobinSharesTheBlocksEvenly() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult r = once(m, m.name() + "16e9", "block-exclusive", CodaSim.FGP);
        String msg = String.format("cta_imbalance %.3f, idle tail %.3f", CodaSim.metric(r, "cta_imbalance"), CodaSim.metric(r, "gpu_idle_tail_fraction"));
        System.out.println("FGP + round-robin: " + msg);
        assertTrue(CodaSim.metric(r, "cta_imbalance") < 1.05, msg);
        assertTrue(CodaSim.metric(r, "gpu_idle_tail_fraction") < 0.03, msg);
    }

    /**
     * Why our gains exceed the paper's +31 %: with the class models' 8 compute cycles per group of loads both FGP-Only
     * and CODA are link-bound, so the speedup follows the remote cut. With 128 cycles FGP-Only is still link-bound but
     * CODA is not, and the gain falls to the paper's range with the same remote cut; with 256 neither is, and it is gone.
     */
    @Test
    void gainFollowsTheRemoteCutOnlyWhileCodaIsLinkBound() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] base = compare(m, "block-exclusive", CodaSim.FGP, CodaSim.CODA);
        RunResult[] more = CodaSim.parallel(
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "compute", 128), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "compute", 128), CodaSim.CODA),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "compute", 256), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "compute", 256), CodaSim.CODA));
        RunResult[] r = {base[0], base[1], more[0], more[1], more[2], more[3]};
        String msg = line("compute 8", r[0], r[1]) + "; " + line("compute 128", r[2], r[3]) + "; " + line("compute 256", r[4], r[5]);
        System.out.println(msg);
        double s8 = r[0].simTimeNs() / r[1].simTimeNs(), s128 = r[2].simTimeNs() / r[3].simTimeNs(), s256 = r[4].simTimeNs() / r[5].simTimeNs();
        assertTrue(s128 > 1.1 && s128 < 0.6 * s8, msg);
        assertTrue(s256 > 0.95 && s256 < 1.1, msg);
        double cut8 = remoteBytes(r[1]) / remoteBytes(r[0]), cut128 = remoteBytes(r[3]) / remoteBytes(r[2]);
        assertTrue(Math.abs(cut8 - cut128) < 0.05, msg);
        assertTrue(CodaSim.metric(r[2], "link_utilisation_max") > 0.9 && CodaSim.metric(r[3], "link_utilisation_max") < 0.6, msg);
    }

    /** §6.1: CODA also wins on core-exclusive data (pages shared by neighbouring blocks that Eq. 1 keeps together). */
    @Test
    void codaBeatsFgpOnlyOnCoreExclusive() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = compare(m, "core-exclusive", CodaSim.FGP, CodaSim.CODA);
        String msg = line("core-exclusive", r[0], r[1]);
        System.out.println(msg);
        assertTrue(r[0].simTimeNs() / r[1].simTimeNs() > 1.3, msg);
        assertTrue(remoteBytes(r[1]) < 0.7 * remoteBytes(r[0]), msg);
    }

    /**
     * §4.1's fallback: strides measured from the address streams of sampled block pairs place the data
     * exactly as the declared ones (regular data); on graph-like uneven ranges (undeclared, as the
     * compiler cannot resolve a loaded offset) a regular graph (CoV 0.3) gains clearly, an irregular one
     * (CoV 1.5) is left fine-grained and stays close to FGP-Only (Fig. 12: 55 % vs 5 %).
     */
    @Test
    void profilingFallbackFindsTheStride() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult declared = once(m, m.name() + "16e9", "block-exclusive", CodaSim.CODA);
        RunResult profiled = once(m, m.name() + "16e9", "block-exclusive", CodaSim.CODA_PROFILED);
        assertEquals(declared.simTimePs(), profiled.simTimePs(), "profiled strides place the pages as the declared ones");
        assertEquals(0.0, declared.stats().get("policy.interleave.profiled_objects"), "declared strides need no profile");
        assertTrue(profiled.stats().get("policy.interleave.profiled_objects") > 0, "estimate: profile measured the strides");
        RunResult[] g = CodaSim.parallel(
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "degree_cov", 0.3, "declare", false), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "degree_cov", 0.3, "declare", false), CodaSim.CODA),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "degree_cov", 1.5, "declare", false), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "degree_cov", 1.5, "declare", false), CodaSim.CODA));
        String msg = line("regular graph (CoV 0.3)", g[0], g[1]) + "; " + line("irregular graph (CoV 1.5)", g[2], g[3]);
        System.out.println(msg);
        double regular = g[0].simTimeNs() / g[1].simTimeNs(), irregular = g[2].simTimeNs() / g[3].simTimeNs();
        assertTrue(regular > 1.5, msg);
        assertTrue(remoteBytes(g[1]) < 0.5 * remoteBytes(g[0]), msg);
        assertTrue(irregular > 0.9 && irregular < 1.1, msg);
    }

    /**
     * The estimate on benchmark models that declare nothing (study coda-benchmarks): spmv's row data (ranges
     * from loaded row pointers, the grid-wide mean stride) and bfs's per-vertex arrays (swept by thread in one
     * kernel, gathered through neighbour ids in the other) are laid out with the block groups, so CODA's remote
     * bytes fall (measured -64 % and -44 %); the edges of bfs's power-law graph and spmv's x stay fine. Before the
     * estimate followed the compiler pass and took the grid-wide mean, spmv here kept 0.94x FGP-Only's remote bytes
     * (its chunks drifted from the block groups) and bfs 0.62x (cost, gathered through neighbour ids before it is swept,
     * stayed fine).
     */
    @Test
    void theEstimatePlacesBenchmarkModelsThatDeclareNothing() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = CodaSim.parallel(
                () -> CodaSim.run(m, CodaSim.workload("spmv", "rows", 32768), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("spmv", "rows", 32768), CodaSim.CODA),
                () -> CodaSim.run(m, CodaSim.workload("bfs", "nodes", 65536), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("bfs", "nodes", 65536), CodaSim.CODA));
        String msg = line("spmv", r[0], r[1]) + "; " + line("bfs", r[2], r[3]);
        System.out.println(msg);
        assertTrue(remoteBytes(r[1]) < 0.7 * remoteBytes(r[0]), msg);
        assertTrue(remoteBytes(r[3]) < 0.6 * remoteBytes(r[2]), msg);
    }

    /**
     * {@code blocks_per_gpu: -1}, the paper's literal N_blocks_per_GPU: the kernel's occupancy. The class models'
     * 8-warp blocks fit 6 to an SM of 48 warps, so a GPU's group is 24 blocks, not the CTA limit's 32. Then 256
     * blocks make 10 2/3 groups (one GPU runs a sixth more blocks), and core-exclusive's rows of 256 x 1 KB strips
     * are no whole number of 4 x 24 KB chunks, so from the second row on its chunks slide against the block
     * groups and its remote bytes stay near FGP-Only's (docs/mechanisms/coda.md: N_bpg).
     */
    @Test
    void theKernelsOccupancyAsNBpgMisalignsStripsAndUnbalancesTheGpus() {
        MachineConfig m = CodaSim.machine("coda");
        CodaSim.Config occupancy = CodaSim.Config.of("coda", "affinity", "blocks_per_gpu", -1).ctaParams("blocks_per_gpu", -1);
        RunResult[] r = CodaSim.parallel(
                () -> CodaSim.run(m, CodaSim.workload("core-exclusive", "ctas", CTAS), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("core-exclusive", "ctas", CTAS), CodaSim.CODA),
                () -> CodaSim.run(m, CodaSim.workload("core-exclusive", "ctas", CTAS), occupancy));
        String msg = line("CTA limit (32)", r[0], r[1]) + "; " + line("occupancy (24)", r[0], r[2]);
        System.out.println(msg + "; cta_imbalance " + CodaSim.metric(r[1], "cta_imbalance") + " vs " + CodaSim.metric(r[2], "cta_imbalance"));
        assertEquals(1.0, CodaSim.metric(r[1], "cta_imbalance"), 1e-9, msg);
        assertTrue(CodaSim.metric(r[2], "cta_imbalance") > 1.1, msg);
        assertTrue(remoteBytes(r[2]) > 1.5 * remoteBytes(r[1]), msg);
    }

    /**
     * Migration-based first touch (§6.1): pages placed page-round-robin by the host move to their first
     * GPU toucher, each copy pulled over the one link between the two GPUs. In one launch our blocks read
     * their data once, so a migration's 4 KB copy buys no reuse and the run is slower than CGP-Only; the
     * gain needs re-reads on the same GPU ({@link #migrateOnTouchGainsWhenBlocksRereadTheirPagesOnTheSameGpu}).
     */
    @Test
    void migrateOnTouchMovesPagesToTheirFirstToucher() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult cgp = once(m, m.name() + "16e9", "block-exclusive", CodaSim.CGP);
        RunResult mig = once(m, m.name() + "16e9", "block-exclusive", CodaSim.MIGRATE);
        double copies = mig.stats().get("os.copy_bytes"), demandRemote = remoteBytes(mig) - copies / 2;
        double lo = Double.MAX_VALUE, hi = 0;
        for (int g = 0; g < 4; g++) {
            double b = mig.stats().get("gpu" + g + ".fabric.remote_bytes");
            lo = Math.min(lo, b);
            hi = Math.max(hi, b);
        }
        String msg = String.format("%s; migrations %.0f, copy bytes %.0f, demand remote bytes %.0f, per-GPU remote bytes %.0f..%.0f",
                line("CGP-Only vs migrate-on-touch", cgp, mig), CodaSim.metric(mig, "migrations"), copies, demandRemote, lo, hi);
        System.out.println(msg);
        // about 3/4 of the pages start on another GPU than their first toucher's
        assertTrue(CodaSim.metric(mig, "migrations") > 0.6 * mig.stats().get("policy.migration.host_mapped"), msg);
        assertTrue(demandRemote < remoteBytes(cgp), msg);
        assertTrue(hi < 1.5 * lo, "copies are spread over the GPUs' own links: " + msg);
        assertTrue(mig.simTimeNs() > cgp.simTimeNs(), msg);
        // each migration reads and writes one whole 4 KB page, and copies run side by side (no one-page-at-a-time engine)
        assertEquals(2 * 4096 * CodaSim.metric(mig, "migrations"), copies, msg);
        assertTrue(mig.stats().get("os.migrations_peak_in_flight") > 64, msg);
    }

    /**
     * Where migration-based first touch pays (§6.1: +7 %): when blocks read their pages again on the GPU that
     * pulled them. With 4 launches of the grid and affinity scheduling (Eq. 1: block b on the same GPU every
     * launch) the copies of the first launch make the next three local; affinity alone does nothing for
     * CGP-Only, so the gain is the migration's. Under round-robin a block lands where an SM is free, so in
     * later launches many blocks read pages another GPU pulled (docs/mechanisms/coda.md: migrate-on-touch).
     */
    @Test
    void migrateOnTouchGainsWhenBlocksRereadTheirPagesOnTheSameGpu() {
        MachineConfig m = CodaSim.machine("coda");
        CodaSim.Config cgpAffinity = CodaSim.Config.of("coarse", "affinity");
        RunResult[] r = CodaSim.parallel(() -> CodaSim.run(m, fourLaunches(), CodaSim.CGP), () -> CodaSim.run(m, fourLaunches(), cgpAffinity),
                () -> CodaSim.run(m, fourLaunches(), cgpAffinity.migrating("migrate-on-touch")));
        String msg = line("4 launches, CGP-Only vs CGP + affinity", r[0], r[1]) + "; " + line("CGP-Only vs migrate-on-touch + affinity", r[0], r[2]);
        System.out.println(msg);
        assertTrue(r[1].simTimeNs() > 0.95 * r[0].simTimeNs() && r[1].simTimeNs() < 1.05 * r[0].simTimeNs(), "affinity alone is neutral: " + msg);
        assertTrue(r[0].simTimeNs() > 1.15 * r[2].simTimeNs(), msg);
        assertTrue(remoteBytes(r[2]) < remoteBytes(r[0]), "copies included: " + msg);
    }

    private static Workload fourLaunches() { return CodaSim.workload("block-exclusive", "ctas", CTAS, "iterations", 4); }

    /**
     * Why migrate-on-touch still loses with 256 GB/s links, where no link is busy: the GPU memories bind.
     * Every migrated page costs a 4 KB read and a 4 KB write besides the block's own reads of it (which
     * our blocks make once), so the HBM stacks move about 3x CGP-Only's bytes; the busiest stack is
     * nearly saturated (docs/mechanisms/coda.md: migrate-on-touch).
     */
    @Test
    void withFastLinksMigrateOnTouchIsBoundByTheGpuMemories() {
        Object[] fast = new Object[12];
        for (int i = 0; i < 6; i++) {
            fast[2 * i] = "links." + i + ".bandwidth";
            fast[2 * i + 1] = "256GB/s";
        }
        MachineConfig m = CodaSim.machine("coda", fast);
        RunResult[] r = compare(m, "block-exclusive", CodaSim.CGP, CodaSim.MIGRATE);
        double dramCgp = 0, dramMig = 0, busiest = 0;
        for (int p = 0; p < 4; p++) {
            dramCgp += CodaSim.metric(r[0], "pool.hbm" + p + ".bytes");
            dramMig += CodaSim.metric(r[1], "pool.hbm" + p + ".bytes");
            busiest = Math.max(busiest, CodaSim.metric(r[1], "pool.hbm" + p + ".utilisation"));
        }
        String msg = String.format("%s; HBM bytes %.0f vs %.0f, busiest HBM %.2f, busiest link %.2f, migration mean %.0f ps", line("256 GB/s CGP-Only vs migrate-on-touch", r[0], r[1]),
                dramCgp, dramMig, busiest, CodaSim.metric(r[1], "link_utilisation_max"), r[1].stats().get("os.migration_mean_ps"));
        System.out.println(msg);
        assertTrue(r[1].simTimeNs() > r[0].simTimeNs(), msg);
        assertTrue(CodaSim.metric(r[1], "link_utilisation_max") < 0.5, msg);
        assertTrue(dramMig > 2.5 * dramCgp, msg);
        assertTrue(busiest > 0.8, msg);
    }

    /** Fig. 11: CODA's gain shrinks as the remote bandwidth grows, but stays positive. */
    @Test
    void gainShrinksWithRemoteBandwidthButStaysPositive() {
        MachineConfig slow = CodaSim.machine("coda");
        Object[] fast = new Object[12];
        for (int i = 0; i < 6; i++) {
            fast[2 * i] = "links." + i + ".bandwidth";
            fast[2 * i + 1] = "256GB/s";
        }
        MachineConfig quick = CodaSim.machine("coda", fast);
        RunResult[] s = compare(slow, "block-exclusive", CodaSim.FGP, CodaSim.CODA);
        RunResult[] f = compare(quick, "block-exclusive", CodaSim.FGP, CodaSim.CODA);
        String msg = line("16 GB/s links", s[0], s[1]) + "; " + line("256 GB/s links", f[0], f[1]);
        System.out.println(msg);
        double gs = s[0].simTimeNs() / s[1].simTimeNs(), gf = f[0].simTimeNs() / f[1].simTimeNs();
        assertTrue(gf < gs, msg);
        assertTrue(gf > 1.0, msg);
        // What is left at 256 GB/s is the links' latency (100 ns each way, ours; the paper gives none): with 20 ns
        // links the gain falls to the paper's size (+8 % at 256 GB/s) and stays positive.
        Object[] near = java.util.Arrays.copyOf(fast, 24);
        for (int i = 0; i < 6; i++) {
            near[12 + 2 * i] = "links." + i + ".latency";
            near[12 + 2 * i + 1] = "20ns";
        }
        MachineConfig close = CodaSim.machine("coda", near);
        RunResult[] n = CodaSim.parallel(() -> CodaSim.run(close, CodaSim.workload("block-exclusive", "ctas", CTAS), CodaSim.FGP),
                () -> CodaSim.run(close, CodaSim.workload("block-exclusive", "ctas", CTAS), CodaSim.CODA));
        double gn = n[0].simTimeNs() / n[1].simTimeNs();
        String msg2 = msg + "; " + line("256 GB/s, 20 ns links", n[0], n[1]);
        System.out.println(msg2);
        assertTrue(gn > 1.0 && gn < 1.15 && gn < gf, msg2);
    }

    /**
     * Fig. 12 says CODA with an inaccurate per-block estimate gains less but never loses to FGP-Only. That
     * does NOT hold here (docs/mechanisms/coda.md): with the stride off by 2x the chunks miss the block groups, locality is
     * gone, and each GPU's remote traffic lands on one or two links instead of all three, so CODA is about
     * 2x slower than FGP-Only. What is checked is the mechanism: the gain depends on the estimate.
     */
    @Test
    void aWrongStrideEstimateLosesTheLocality() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult base = once(m, m.name() + "16e9", "block-exclusive", CodaSim.FGP);
        RunResult exact = once(m, m.name() + "16e9", "block-exclusive", CodaSim.CODA);
        RunResult[] off = CodaSim.parallel(
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "stride_error", 0.5), CodaSim.CODA),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", CTAS, "stride_error", 2.0), CodaSim.CODA));
        String msg = line("exact", base, exact) + "; " + line("half", base, off[0]) + "; " + line("double", base, off[1]);
        System.out.println(msg);
        for (RunResult r : off) {
            assertTrue(r.simTimeNs() > 2 * exact.simTimeNs(), msg);
            assertTrue(remoteBytes(r) > 0.9 * remoteBytes(base), msg);
        }
    }

    /**
     * Fig. 14: on one GPU with all four stacks, fine-grained interleaving beats page interleaving. In hmsim the loss is stack
     * camping: a block-exclusive block reads 16 KB, one page per stack, so under page round-robin page q of every block sits on
     * stack q mod 4 and all resident blocks, streaming in step, load one stack at a time. With 20 KB per block (5 pages) the
     * blocks' current pages are spread over the stacks and coarse runs as fast as fine: the loss is the camping, not the grain.
     */
    /**
     * On one GPU, affinity and contiguous bind every block to GPU 0 and take its next SM with room, as round-robin does: the
     * runs repeat round-robin's to the picosecond, which their providers' validation note says (coda.yaml crosses coda-big
     * with the scheduler sweep, so the runs are noted, not refused).
     */
    @Test
    void onOneGpuTheAffinitySchedulersRepeatRoundRobinAndSaySo() {
        MachineConfig big = CodaSim.machine("coda-big");
        RunResult[] r = CodaSim.parallel(() -> CodaSim.run(big, CodaSim.workload("block-exclusive", "ctas", CTAS), CodaSim.FGP),
                () -> CodaSim.run(big, CodaSim.workload("block-exclusive", "ctas", CTAS), CodaSim.FGP_AFFINITY),
                () -> CodaSim.run(big, CodaSim.workload("block-exclusive", "ctas", CTAS), CodaSim.Config.of("fine", "contiguous", "granularity", 128)));
        assertEquals(r[0].stats(), r[1].stats(), "affinity on one GPU");
        assertEquals(r[0].stats(), r[2].stats(), "contiguous on one GPU");
        org.hmsim.api.policy.RunFacts one = big.runFacts(java.util.List.of()), four = CodaSim.machine("coda").runFacts(java.util.List.of());
        for (org.hmsim.api.policy.PolicyProvider p : java.util.List.of(new AffinityCtaProvider(), new ContiguousCtaProvider())) {
            org.hmsim.api.policy.Params none = org.hmsim.api.policy.Params.validate(p.parameters(), java.util.Map.of());
            assertTrue(p.note(none, one) != null && p.note(none, one).contains("repeat round-robin"), p.name());
            assertEquals(null, p.note(none, four), p.name() + " on four GPUs");
        }
    }

    /** blocks_per_gpu 0 stands for SMs per GPU x the CTA limit: 0 and 32 on the coda machine are one value, -1 stays itself. */
    @Test
    void blocksPerGpuIsComparedAsTheMachineResolvesIt() {
        org.hmsim.api.policy.RunFacts coda = CodaSim.machine("coda").runFacts(java.util.List.of());
        for (org.hmsim.api.policy.PolicyProvider p : java.util.List.of(new CodaInterleaveProvider(), new AffinityCtaProvider())) {
            assertEquals(java.util.Set.of("blocks_per_gpu"), p.sharedParameters());
            assertEquals(32, p.sharedValue("blocks_per_gpu", org.hmsim.api.policy.Params.validate(p.parameters(), java.util.Map.of()), coda), p.name());
            assertEquals(-1, p.sharedValue("blocks_per_gpu", org.hmsim.api.policy.Params.validate(p.parameters(), java.util.Map.of("blocks_per_gpu", -1)), coda));
        }
    }

    /** In a multiprogrammed mix no GPU touches another program's pages: migrate-on-touch says it moves nothing (a trial's ran silently). */
    @Test
    void migrateOnTouchSaysAMixGivesItNothingToMove() {
        MachineConfig coda = CodaSim.machine("coda");
        MigrateOnTouchProvider p = new MigrateOnTouchProvider();
        org.hmsim.api.policy.Params none = org.hmsim.api.policy.Params.validate(p.parameters(), java.util.Map.of());
        assertTrue(p.note(none, coda.runFacts(java.util.List.of(), 2, true)).contains("nothing moves"));
        assertEquals(null, p.note(none, coda.runFacts(java.util.List.of())), "one program on four GPUs");
    }

    @Test
    void fineBeatsCoarseOnOneBigGpuThroughStackCamping() {
        MachineConfig big = CodaSim.machine("coda-big");
        RunResult[] r = compare(big, "block-exclusive", CodaSim.FGP, CodaSim.CGP);
        RunResult[] spread = CodaSim.parallel(() -> CodaSim.run(big, CodaSim.workload("block-exclusive", "ctas", CTAS, "own_bytes", 20480), CodaSim.FGP),
                () -> CodaSim.run(big, CodaSim.workload("block-exclusive", "ctas", CTAS, "own_bytes", 20480), CodaSim.CGP));
        double camped = r[1].simTimeNs() / r[0].simTimeNs(), spreadOut = spread[1].simTimeNs() / spread[0].simTimeNs();
        String msg = String.format("coda-big block-exclusive: 16 KB per block fine %.0f ns, coarse %.0f ns (fine %.2fx); 20 KB per block fine %.0f, coarse %.0f (%.2fx)",
                r[0].simTimeNs(), r[1].simTimeNs(), camped, spread[0].simTimeNs(), spread[1].simTimeNs(), spreadOut);
        System.out.println(msg);
        assertTrue(camped > 1.2, msg);
        assertTrue(spreadOut < 1.1, msg);
        assertTrue(remoteBytes(r[0]) == 0 && remoteBytes(r[1]) == 0, msg);
    }
}
