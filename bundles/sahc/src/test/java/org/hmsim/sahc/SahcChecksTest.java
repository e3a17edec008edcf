package org.hmsim.sahc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's reproduction checks on the scaled-down sahc machine (8 CUs) and the apu-* models at 16 K
 * elements: lookups saved (Table 3), fault counts under SAHC-T and SAHC-A (Table 3), and the runtime
 * ordering of Fig. 7 (directory slower than ideal; SAHC-T slower than the directory where faults pile up,
 * SAHC-A recovering). Direction and rough size only.
 */
class SahcChecksTest {
    private static final String[] APPS = {"bitonic", "matrixmul", "nw", "srad", "kmeans", "reduction"};
    private static final String[] POLICIES = {"directory", "ideal", "sahc-t", "sahc-a"};
    /** The other models, for the lookup and fault checks (directory, SAHC-T and SAHC-A only: shorter). */
    private static final String[] OTHERS = {"bfs", "coloring", "histogram", "hotspot", "lud"};
    private static final Map<String, RunResult> RUNS = new HashMap<>();

    @BeforeAll
    static void runAll() {
        MachineConfig m = Apu.machine();
        for (String a : APPS)
            for (String p : POLICIES) RUNS.put(a + "/" + p, Apu.run(m, Apu.app(a, "elements", 16384), p));
        for (String a : OTHERS)
            for (String p : new String[] {"directory", "sahc-t", "sahc-a"}) RUNS.put(a + "/" + p, Apu.run(m, Apu.app(a, "elements", 16384), p));
    }

    private static double stat(String app, String policy, String name) { return Apu.stat(RUNS.get(app + "/" + policy), name); }

    private static double ns(String app, String policy) { return RUNS.get(app + "/" + policy).simTimeNs(); }

    /**
     * Every CPU access is counted once: as an L1, L2 or LLC hit, as an LLC miss or upgrade sent to the directory, or
     * merged into a miss already in flight. (A merged access was counted as a miss and again as a hit at its fill.)
     * The page-toggle rate is per last-level miss, bypassed ones included, so at most one per miss.
     */
    @Test
    void cpuCountersCountEachAccessOnceAndTheToggleRateIsPerMiss() {
        for (Map.Entry<String, RunResult> e : RUNS.entrySet()) {
            RunResult r = e.getValue();
            double counted = Apu.stat(r, "cpu.l1.hits") + Apu.stat(r, "cpu.l2.hits") + Apu.stat(r, "cpu.llc.hits") + Apu.stat(r, "cpu.llc.misses")
                    + Apu.stat(r, "cpu.llc.upgrades") + Apu.stat(r, "cpu.llc.merged") - Apu.stat(r, "cpu.llc.merged_resent");
            assertEquals(Apu.stat(r, "cpu.accesses"), counted, e.getKey() + ": hits + misses + upgrades + merged - merged and re-sent");
            assertTrue(r.metrics().get("toggles_per_10k_lookups") <= 10_000, e.getKey() + ": " + r.metrics().get("toggles_per_10k_lookups"));
        }
    }

    @Test
    void sahcTRemovesAtLeast98PercentOfDirectoryLookups() {
        // Every model (Table 3: 98.64-100 %). kmeans keeps the most (measured 7718 of 426864, 98.2 %; the
        // seed: 99.01 %): its memberships and centroids are promoted to CPU_GPU and stay on the directory,
        // a small share next to the features the GPU and the CPU stream every iteration.
        for (String a : new String[] {"bitonic", "matrixmul", "nw", "srad", "reduction", "kmeans", "bfs", "coloring", "histogram", "hotspot", "lud"}) {
            double base = stat(a, "directory", "directory.lookups"), t = stat(a, "sahc-t", "directory.lookups");
            assertTrue(base > 1000, a + ": the baseline uses the directory (" + base + ")");
            assertTrue(t <= 0.02 * base, a + ": SAHC-T lookups " + t + " of " + base);
        }
        assertTrue(stat("kmeans", "sahc-t", "directory.lookups") > 0, "kmeans's actively shared pages still use the directory");
    }

    @Test
    void postProcessingFaultsUnderSahcTStopUnderSahcAButActiveSharingKeepsThem() {
        for (String a : new String[] {"matrixmul", "nw", "srad"}) {
            assertTrue(stat(a, "sahc-t", "coherence.ownership_faults") >= 8, a + " faults under SAHC-T");
            assertEquals(0, stat(a, "sahc-a", "coherence.ownership_faults"), a + ": gpuWorkFinish removes the post-processing faults");
        }
        // bfs: its post-processing faults go, the few actively shared pages (the stop flag) keep theirs
        double bt = stat("bfs", "sahc-t", "coherence.ownership_faults"), ba = stat("bfs", "sahc-a", "coherence.ownership_faults");
        assertTrue(bt >= 8 && ba <= 0.25 * bt, "bfs faults nearly stop under SAHC-A: " + bt + " -> " + ba);
        double kt = stat("kmeans", "sahc-t", "coherence.ownership_faults"), ka = stat("kmeans", "sahc-a", "coherence.ownership_faults");
        assertTrue(kt >= 10, "kmeans faults under SAHC-T: " + kt);
        assertEquals(kt, ka, "kmeans's faults come from active sharing: SAHC-A keeps them");
        assertTrue(stat("kmeans", "sahc-a", "policy.coherence.promotions") > 0, "actively shared pages are promoted to CPU_GPU");
    }

    @Test
    void cpuWritesToGpuHeldBlocksInvalidateTheGpuCopies() {
        // kmeans: the CPU rewrites the centroids the GPU read. The directory's invalidation probes now drop
        // those blocks from the GPU L2 (and L1s): every probe found its block (no stale GPU bit here).
        double probes = stat("kmeans", "directory", "directory.gpu_probes"), dropped = stat("kmeans", "directory", "directory.gpu_lines_invalidated");
        assertTrue(probes > 0, "kmeans: the CPU writes blocks the GPU holds");
        assertTrue(dropped > 0 && dropped <= probes, "GPU L2 lines invalidated by probes: " + dropped + " of " + probes);
        assertTrue(stat("kmeans", "ideal", "directory.gpu_lines_invalidated") > 0, "ideal coherence invalidates them too, at no cost");
    }

    @Test
    void gpuStoresInvalidateTheCpusPreKernelCopies() {
        // nw and srad: the CPU initialises an array, the GPU rewrites it, the CPU reads it back. The GPU L2
        // (1 MB here) keeps the rewritten lines, so no write-back tells the directory; the GPU stores must
        // invalidate the CPU's copies themselves (the seed's write-through GPU), or the directory and ideal
        // runs' post-processing would hit stale CPU copies. Every CPU read-back then misses, as under SAHC-A
        // (whose CPU caches were flushed at the first launch).
        for (String a : new String[] {"nw", "srad"}) {
            assertTrue(stat(a, "ideal", "directory.gpu_store_invalidations") >= 1024, a + ": the GPU's stores invalidate the CPU's copies");
            for (String p : new String[] {"directory", "ideal"})
                assertEquals(stat(a, "sahc-a", "cpu.llc.misses"), stat(a, p, "cpu.llc.misses"), a + ": " + p + "'s read-back misses as SAHC-A's does");
        }
    }

    @Test
    void directoryIsSlowerThanIdealAndSahcARecoversWhatSahcTLoses() {
        for (String a : new String[] {"bitonic", "matrixmul", "kmeans"}) {
            assertTrue(ns(a, "directory") > 1.15 * ns(a, "ideal"), a + ": directory " + ns(a, "directory") + " vs ideal " + ns(a, "ideal"));
            assertTrue(stat(a, "directory", "directory.queue_delay_ps") > 0, a + ": the directory queues");
        }
        // nw and srad hold only because the GPU's stores invalidate the CPU's pre-kernel copies (see
        // gpuStoresInvalidateTheCpusPreKernelCopies): without that, ideal's read-back hit stale CPU lines
        // and SAHC-A, whose CPU caches are flushed at the first launch, measured 1.13 and 1.17 x ideal.
        for (String a : new String[] {"bitonic", "matrixmul", "nw", "srad"})
            assertTrue(ns(a, "sahc-a") < 1.05 * ns(a, "ideal"), a + ": SAHC-A " + ns(a, "sahc-a") + " close to ideal " + ns(a, "ideal"));
        // kmeans (§6.2: SAHC-T "significantly reduces or almost eliminates" its overhead): it keeps its 51
        // active-sharing faults (3 per shared page, 2.5 us each, served one at a time), which cost a small part
        // of what the directory costs over ideal (measured: SAHC-T 1.03 x ideal, directory 1.21 x, so 13 % of the
        // directory's overhead; 1.09 and 1.92 x while a CPU miss left out its cache look-ups and the host phases
        // were 2.5 x too short, which made the GPU's share, where the directory costs, larger).
        double ideal = ns("kmeans", "ideal"), directory = ns("kmeans", "directory");
        for (String p : new String[] {"sahc-t", "sahc-a"})
            assertTrue(ns("kmeans", p) < 1.2 * ideal && ns("kmeans", p) - ideal < 0.3 * (directory - ideal),
                    "kmeans: " + p + " " + ns("kmeans", p) + " vs ideal " + ideal + ", directory " + directory);
        for (String a : new String[] {"matrixmul", "nw", "srad"}) {
            assertTrue(ns(a, "sahc-t") > ns(a, "directory"), a + ": SAHC-T's faults cost more than the directory saves");
            assertTrue(ns(a, "sahc-a") < ns(a, "directory"), a + ": SAHC-A recovers");
        }
    }
}
