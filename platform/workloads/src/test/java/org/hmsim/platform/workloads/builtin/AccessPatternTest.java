package org.hmsim.platform.workloads.builtin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.platform.workloads.TestSupport;
import org.hmsim.platform.workloads.WorkloadInspector;
import org.junit.jupiter.api.Test;

/** The access patterns that make each model what it is. */
class AccessPatternTest {
    private static Workload make(String name, Map<String, Object> params, long seed) {
        return TestSupport.create(BuiltinWorkloads.byName(name), params, seed);
    }

    private static Set<Long> lines(WarpInstruction in) {
        Set<Long> s = new HashSet<>();
        for (int l = 0; l < 32; l++) if ((in.activeMask & (1 << l)) != 0) s.add(in.addresses[l] / 128);
        return s;
    }

    @Test
    void streamIsOneLinePerInstructionWithFullWarps() {
        int[] full = {0};
        WorkloadInspector.inspect(make("stream", Map.of("elements", 1 << 16, "ctas", 16), 1), 1_000_000, (k, c, w, in, o) -> {
            if (in.kind == Kind.COMPUTE || in.kind == Kind.BARRIER) return;
            assertEquals(1, lines(in).size(), "32 threads x 4 B must be one 128 B line");
            assertEquals(-1, in.activeMask);
            assertEquals(0, in.addresses[0] % 128, "warp accesses are line aligned");
            full[0]++;
        });
        assertEquals(3 * (1 << 16) / 32, full[0], "2 loads + 1 store per element, 32 elements per instruction");
    }

    @Test
    void streamReadOnlyModeOnlyReads() {
        Workload w = make("stream", Map.of("writes", false), 1);
        assertEquals(2, w.allocations().size());
        assertTrue(w.allocations().stream().allMatch(AllocationSpec::readOnly));
        int[] loads = {0};
        WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, o) -> {
            assertTrue(in.kind != Kind.STORE && in.kind != Kind.ATOMIC);
            if (in.kind == Kind.LOAD) loads[0]++;
        });
        assertTrue(loads[0] > 0, "the stream still reads");
    }

    /**
     * A 3x3 stencil's row below lies in the next CTA's tile (1024-element rows, 1024-element tiles): CTA 0 reads
     * A from element 0 to the end of row 1, not only its own tile (seed 002's 2DCONV reads rows i-1, i, i+1).
     */
    @Test
    void conv2dReadsTheRowBelowBeyondItsTile() {
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        WorkloadInspector.inspect(make("etc-2dconv", Map.of("elements", 1 << 20), 1), 2_000_000, (k, c, w, in, o) -> {
            if (c != 0 || in.kind != Kind.LOAD) return;
            for (int l = 0; l < 32; l++) {
                if ((in.activeMask & (1 << l)) == 0) continue;
                span[0] = Math.min(span[0], in.addresses[l]);
                span[1] = Math.max(span[1], in.addresses[l]);
            }
        });
        assertEquals(4 * (2 * 1024 - 1), span[1] - span[0], "CTA 0 reads A's elements 0 .. 2047 (its tile and the row below)");
    }

    /**
     * The CUDA SDK scan's second kernel gathers one word per 1024 elements of the scanned input and output:
     * each warp load is 32 lines 4 KB apart, and the kernel touches every 4 KB page of both arrays.
     */
    @Test
    void scanSumsKernelTouchesEveryPageOfBothArraysWithOneWordEach() {
        Set<Long> pages = new HashSet<>();
        int[] loads = {0};
        WorkloadInspector.inspect(make("etc-scan", Map.of("elements", 1 << 18), 1), 2_000_000, (k, c, w, in, o) -> {
            if (k != 1 || in.kind != Kind.LOAD) return;
            assertEquals(32, lines(in).size(), "one word per 4 KB: no coalescing");
            for (int l = 0; l < 32; l++) pages.add(in.addresses[l] >>> 12);
            loads[0]++;
        });
        assertEquals(2 * (1 << 18) / 1024, pages.size(), "every 4 KB page of src and dst");
        assertEquals(2 * (1 << 18) / 1024 / 32, loads[0], "two loads per warp of 32 gathered blocks");
    }

    /**
     * CONS's column pass is the SDK's convolutionColumnsKernel: a block reads a 16-column tile of its 64-row band
     * plus an 8-row halo above and below (80 rows), each warp load two rows' 64 B segments.
     */
    @Test
    void consColumnBlocksReadTheirBandWithHalos() {
        long[] rows = {Long.MAX_VALUE, Long.MIN_VALUE};
        WorkloadInspector.inspect(make("etc-cons", Map.of("elements", 1 << 20), 1), 5_000_000, (k, c, w, in, o) -> {
            if (k != 1 || c != 64 || in.kind != Kind.LOAD) return; // block 64: band 1, columns 0-15 (1024 / 16 blocks per band)
            assertEquals(2, lines(in).size(), "two rows' 64 B segments per warp load");
            for (int l = 0; l < 32; l++) {
                long row = (in.addresses[l] / 4) / 1024; // 4 KB rows; the allocation is page-aligned
                rows[0] = Math.min(rows[0], row);
                rows[1] = Math.max(rows[1], row);
            }
        });
        assertEquals(80, rows[1] - rows[0] + 1, "rows 56 .. 135: the band 64 .. 127 and one 8-row step of halo each side");
    }

    @Test
    void kmeansFeatureLoadsTouch32DistinctLines() {
        int[] loads = {0};
        WorkloadInspector.inspect(make("kmeans", Map.of("points", 1024, "features", 34, "clusters", 2, "iterations", 1), 1), 1_000_000,
                (k, c, w, in, o) -> {
                    if (in.kind == Kind.LOAD) {
                        assertEquals(32, lines(in).size(), "stride 136 B between threads: no coalescing");
                        loads[0]++;
                    }
                });
        assertEquals(1024 / 32 * 2 * 34, loads[0]);
    }

    /**
     * The OpenCL kernel on the swapped copy (seed 003's kmeans): a feature load is one coalesced line (128 B of 32
     * consecutive points), and each is followed by its centre, one word every lane reads.
     */
    @Test
    void kmeansFeatureMajorLoadsAreOneLineEachWithABroadcastCentre() {
        int[] features = {0}, centres = {0};
        WorkloadInspector.inspect(make("kmeans", Map.of("points", 1024, "features", 34, "clusters", 2, "iterations", 1, "layout", "feature-major"), 1),
                1_000_000, (k, c, w, in, o) -> {
                    if (in.kind != Kind.LOAD) return;
                    assertEquals(1, lines(in).size(), "consecutive points of one feature: one line");
                    if (in.addresses[0] == in.addresses[31]) centres[0]++;
                    else {
                        assertEquals(4, in.addresses[1] - in.addresses[0], "4 B apart");
                        features[0]++;
                    }
                });
        assertEquals(1024 / 32 * 2 * 34, features[0]);
        assertEquals(features[0], centres[0]);
    }

    @Test
    void bfsHotArraysGetMuchMoreThanTheirShareOfTraffic() {
        Workload w = make("bfs", Map.of("nodes", 20_000, "degree", 8), 5);
        var s = WorkloadInspector.inspect(w, 10_000_000);
        Set<String> hot = Set.of("graph_mask", "updating_graph_mask", "graph_visited", "cost");
        long hotBytes = 0, hotLines = 0;
        for (int i = 0; i < s.allocations().size(); i++) {
            if (!hot.contains(s.allocations().get(i))) continue;
            hotBytes += w.allocations().get(i).bytes();
            hotLines += s.lineAccesses()[i];
        }
        double byteShare = (double) hotBytes / s.footprint(), trafficShare = (double) hotLines / s.linesTotal();
        assertTrue(byteShare < 0.3, "hot arrays are a small part of the footprint: " + byteShare);
        assertTrue(trafficShare > 0.5, "hot arrays carry most accesses: " + trafficShare);
        assertTrue(trafficShare / byteShare > 2.5, "skew " + trafficShare / byteShare);
    }

    @Test
    void bfsEdgeLoadsAndVisitedGathersAreDependent() {
        int[] edgeLoads = {0};
        Workload w = make("bfs", Map.of("nodes", 2000), 5);
        WorkloadInspector.inspect(w, 10_000_000, (k, c, wp, in, owner) -> {
            if (in.kind != Kind.LOAD) return;
            int lane = Integer.numberOfTrailingZeros(in.activeMask);
            String a = w.allocations().get(owner[lane]).name();
            if (a.equals("graph_edges") || a.equals("graph_visited") && k % 2 == 0) {
                assertTrue(in.waitsForLoads, a + " load must wait for the load it depends on");
                edgeLoads[0]++;
            }
        });
        assertTrue(edgeLoads[0] > 0);
    }

    @Test
    void pointerChaseVisitsEveryNodeOnceAndEveryLoadWaits() {
        int nodes = 512;
        Set<Long> seen = new HashSet<>();
        Workload w = make("pointer-chase", Map.of("footprint", nodes * 128, "hops", nodes), 9);
        var s = WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, o) -> {
            assertEquals(Kind.LOAD, in.kind);
            assertTrue(in.waitsForLoads);
            assertEquals(1, in.activeMask, "one chain: one request in flight");
            assertTrue(seen.add(in.addresses[0]), "a random cycle revisits nothing before it closes");
        });
        assertEquals(nodes, seen.size());
        assertEquals(nodes, s.memoryInstructions());
    }

    @Test
    void pointerChaseChainsAreParallelLanes() {
        int[] loads = {0};
        Set<Long> nodes = new HashSet<>();
        WorkloadInspector.inspect(make("pointer-chase", Map.of("chains", 8, "hops", 50), 9), 1_000_000,
                (k, c, wp, in, o) -> {
                    assertEquals(0xFF, in.activeMask);
                    assertEquals(8, lines(in).size());
                    loads[0]++;
                    for (int l = 0; l < 8; l++) nodes.add(in.addresses[l]);
                });
        assertEquals(50, loads[0], "one warp: a load of all 8 chains per hop");
        assertEquals(8 * 50, nodes.size(), "the chains walk disjoint stretches of the cycle");
    }

    @Test
    void btreeRootIsHotLeavesColdAndWalksAreDependent() {
        for (String mode : new String[] {"cta", "thread"}) {
            Workload w = make("btree", Map.of("keys", 100_000, "order", 32, "queries", 256, "mode", mode), 4);
            long[] base = WorkloadInspector.layout(w.allocations());
            BtreeWorkload.Tree t = new BtreeWorkload.Tree(100_000, 32);
            long rootEnd = base[BtreeWorkload.NODES] + t.nodeBytes;
            long leafStart = base[BtreeWorkload.NODES] + t.levelStart[t.levels - 1] * t.nodeBytes;
            long[] rootAccesses = {0}, leafAccesses = {0}, nodeLoads = {0}, waiting = {0};
            WorkloadInspector.inspect(w, 5_000_000, (k, c, wp, in, owner) -> {
                if (in.kind != Kind.LOAD) return;
                for (int l = 0; l < 32; l++) {
                    if ((in.activeMask & (1 << l)) == 0 || owner[l] != BtreeWorkload.NODES) continue;
                    if (in.addresses[l] < rootEnd) rootAccesses[0]++;
                    else if (in.addresses[l] >= leafStart) leafAccesses[0]++;
                }
                if (owner[Integer.numberOfTrailingZeros(in.activeMask)] == BtreeWorkload.NODES) {
                    nodeLoads[0]++;
                    if (in.waitsForLoads) waiting[0]++;
                }
            });
            long leaves = t.nodes - t.levelStart[t.levels - 1];
            // per byte the root is touched far more often than an average leaf
            assertTrue(rootAccesses[0] > 20.0 * leafAccesses[0] / leaves, mode + ": root " + rootAccesses[0] + " leaves " + leafAccesses[0]);
            if (mode.equals("thread")) assertEquals(nodeLoads[0], waiting[0], "every probe depends on the one before");
            else assertTrue(waiting[0] >= (long) t.levels * 256, "each level's first node load waits for the level above");
            assertTrue(w.allocations().get(BtreeWorkload.NODES).readOnly());
        }
    }

    @Test
    void needleRunsOneKernelPerBlockDiagonal() {
        Workload w = make("needle", Map.of("n", 128), 1);
        var ks = w.kernels(WorkloadInspector.layout(w.allocations()));
        assertEquals(2 * 8 - 1, ks.size());
        for (int d = 0; d < ks.size(); d++) {
            assertEquals(Math.min(d, 14 - d) + 1, ks.get(d).ctas(), "blocks on diagonal " + d);
            assertEquals(16, ks.get(d).threadsPerCta());
        }
    }

    @Test
    void sgemmReadsEachTileOncePerKStepWithBarriers() {
        int n = 64;
        int[] counts = new int[3];
        WorkloadInspector.inspect(make("sgemm", Map.of("n", n), 1), 1_000_000, (k, c, w, in, o) -> {
            if (in.kind == Kind.LOAD) counts[0]++;
            if (in.kind == Kind.BARRIER) counts[1]++;
            if (in.kind == Kind.STORE) counts[2]++;
        });
        int warps = (n / 16) * (n / 16) * 8, kSteps = n / 16;
        assertEquals(warps * (2 * kSteps + 1), counts[0]);
        assertEquals(warps * 2 * kSteps, counts[1]);
        assertEquals(warps, counts[2]);
    }

    @Test
    void hotspotStoresOnlyTheInnerTile() {
        int rows = 64, cols = 64;
        Set<Long> stored = new HashSet<>();
        Workload w = make("hotspot", Map.of("rows", rows, "cols", cols, "pyramid", 2), 1);
        long[] base = WorkloadInspector.layout(w.allocations());
        WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, o) -> {
            if (in.kind != Kind.STORE) return;
            for (int l = 0; l < 32; l++) if ((in.activeMask & (1 << l)) != 0) assertTrue(stored.add(in.addresses[l]), "each cell written once");
        });
        assertEquals(rows * cols, stored.size(), "the inner tiles cover the grid exactly");
        assertTrue(stored.stream().allMatch(a -> a >= base[2] && a < base[2] + 4L * rows * cols), "launch 0 writes temp1");
    }

    @Test
    void sradOutputsAreWrittenBeforeRead() {
        Workload w = make("srad", Map.of("rows", 64, "cols", 64, "iterations", 1), 1);
        Set<Integer> firstTouchIsStore = new HashSet<>(), firstTouchIsLoad = new HashSet<>();
        WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, owner) -> {
            if (in.kind == Kind.COMPUTE || in.kind == Kind.BARRIER) return;
            int a = owner[Integer.numberOfTrailingZeros(in.activeMask)];
            if (!firstTouchIsStore.contains(a) && !firstTouchIsLoad.contains(a))
                (in.kind == Kind.STORE ? firstTouchIsStore : firstTouchIsLoad).add(a);
        });
        for (int a : new int[] {SradWorkload.C, SradWorkload.DN, SradWorkload.DS, SradWorkload.DW, SradWorkload.DE, SradWorkload.SUMS})
            assertTrue(firstTouchIsStore.contains(a), w.allocations().get(a).name() + " is write-first");
        assertTrue(firstTouchIsLoad.contains(SradWorkload.J));
    }

    @Test
    void minifeMatrixIsA27PointStencil() {
        var m = new org.hmsim.platform.workloads.gen.StencilCsr(5);
        int interior = 2 + 5 * (2 + 5 * 2);
        assertEquals(27, m.rowLength(interior));
        assertEquals(8, m.rowLength(0));
        for (int r = 0; r < m.rows(); r++)
            for (int k = 0; k < m.rowLength(r); k++) {
                long c = m.column(r, k);
                assertTrue(c >= 0 && c < m.cols());
                if (k > 0) assertTrue(c > m.column(r, k - 1), "ascending columns");
                long dx = Math.abs(c % 5 - r % 5), dy = Math.abs(c / 5 % 5 - r / 5 % 5), dz = Math.abs(c / 25 - r / 25);
                assertTrue(dx <= 1 && dy <= 1 && dz <= 1, "a neighbour");
            }
        assertEquals(13 * 13 * 13, m.nnz(), "(3n-2)^3 entries");
    }

    @Test
    void spmvGathersFollowTheColumnIndices() {
        // x gathers are dependent loads; colIdx and values loads are coalesced (one line per 32 entries + alignment)
        Workload w = make("spmv", Map.of("rows", 300, "nnz", 32, "spread", 0.0), 2);
        long[] base = WorkloadInspector.layout(w.allocations());
        long[] loads = new long[5];
        Map<Long, Integer> gathered = new java.util.HashMap<>();
        WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, owner) -> {
            if (in.kind != Kind.LOAD) return;
            int a = owner[Integer.numberOfTrailingZeros(in.activeMask)];
            loads[a]++;
            if (a == 1 || a == 2) assertTrue(lines(in).size() <= 2, "colIdx/values coalesced");
            if (a != 3) return;
            assertTrue(in.waitsForLoads, "x gather waits for colIdx");
            for (int l = 0; l < 32; l++) if ((in.activeMask & (1 << l)) != 0) gathered.merge((in.addresses[l] - base[3]) / 4, 1, Integer::sum);
        });
        assertTrue(loads[1] > 0 && loads[2] > 0 && loads[3] > 0, "colIdx, values and x are all loaded: " + java.util.Arrays.toString(loads));
        // the x elements gathered are the matrix's column indices, each as often as it occurs (locality and band: the defaults)
        org.hmsim.platform.workloads.gen.RandomCsr m = new org.hmsim.platform.workloads.gen.RandomCsr(300, 32, 0.0, 0.5, 1024, 2);
        Map<Long, Integer> columns = new java.util.HashMap<>();
        for (int r = 0; r < m.rows(); r++) for (int j = 0; j < m.rowLength(r); j++) columns.merge(m.column(r, j), 1, Integer::sum);
        assertEquals(columns, gathered, "x[] is gathered at the column indices");
    }
}
