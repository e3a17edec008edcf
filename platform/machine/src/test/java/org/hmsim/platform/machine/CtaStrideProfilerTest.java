package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.os.CtaStrideProfile;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.junit.jupiter.api.Test;

/** Seed 004's per-block stride estimate (§4.1): on the class models, whose true strides are known, and on benchmark models. */
class CtaStrideProfilerTest {
    private static final long BASE = 1L << 32;

    private static CtaStrideProfile[] profile(String name, Object... p) {
        WorkloadProvider w = BuiltinWorkloads.byName(name);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < p.length; i += 2) m.put((String) p[i], p[i + 1]);
        Workload wl = w.create(Params.validate(w.parameters(), m), 1);
        List<AllocationSpec> specs = wl.allocations();
        long[] bases = new long[specs.size()];
        List<Allocation> allocs = new ArrayList<>();
        long next = BASE;
        for (int i = 0; i < bases.length; i++) {
            bases[i] = next;
            allocs.add(new Allocation(i, specs.get(i).name(), next, specs.get(i).bytes(), AllocationHint.NONE, false));
            next += (specs.get(i).bytes() + 4095) / 4096 * 4096 + 4096;
        }
        CtaStrideProfiler prof = new CtaStrideProfiler(wl.kernels(bases));
        CtaStrideProfile[] out = new CtaStrideProfile[bases.length];
        for (int i = 0; i < out.length; i++) out[i] = prof.profile(allocs.get(i));
        return out;
    }

    @Test
    void regularObjectsGiveTheirExactStrideAndSharedOnesNone() {
        CtaStrideProfile[] p = profile("block-exclusive", "ctas", 64);
        assertEquals(16 << 10, p[0].meanBytes(), 1e-9, "own: 16 KB per block");
        assertEquals(0, p[0].cov(), 1e-9);
        assertEquals(1024, p[1].meanBytes(), 1e-9, "out: one 4 B result per thread, 256 threads");
        assertTrue(p[2].cov() > 1, "shared: random lines, no stride (" + p[2] + ")");
        // strips of a row-major array (KM's out[i*npoints+pid]): the stride is the strip
        CtaStrideProfile[] k = profile("core-exclusive", "ctas", 64);
        assertEquals(1024, k[0].meanBytes(), 1e-9);
        assertEquals(0, k[0].cov(), 1e-9);
    }

    @Test
    void unevenGraphRangesGiveTheMeanAndTheirSpread() {
        CtaStrideProfile reg = profile("block-exclusive", "ctas", 256, "degree_cov", 0.3, "declare", false)[0];
        CtaStrideProfile irr = profile("block-exclusive", "ctas", 256, "degree_cov", 1.5, "declare", false)[0];
        assertEquals(16 << 10, reg.meanBytes(), 0.25 * (16 << 10), reg.toString());
        assertTrue(reg.cov() > 0.1 && reg.cov() < 0.5, reg.toString());
        assertTrue(irr.cov() > 0.8, irr.toString());
        assertEquals(16, reg.pairs());
    }

    @Test
    void anObjectGatheredThroughLoadedIndicesTakesItsStrideFromTheKernelThatIndexesItByThread() {
        // bfs: visited[] and cost[] are gathered through neighbour ids (kernel 1) and swept by tid (kernel 2)
        CtaStrideProfile[] p = profile("bfs", "nodes", 65536);
        assertEquals(512, p[4].meanBytes(), 1e-9, "visited: 1 B x 512 threads " + p[4]);
        assertEquals(0, p[4].cov(), 1e-9);
        assertEquals(2048, p[5].meanBytes(), 1e-9, "cost: 4 B x 512 threads " + p[5]);
        assertTrue(p[1].cov() > 0.5, "edges: ranges from loaded offsets, power-law degrees (" + p[1] + ")");
    }

    @Test
    void aTiledGridGivesTheDistanceAlongTheBlockOrderAndSharedPanelsNone() {
        // sgemm 1024: 64 x 64 blocks of 16 x 16; consecutive blocks share A's row panel, move 16 columns in B and C
        CtaStrideProfile[] p = profile("sgemm", "n", 1024);
        assertEquals(0, p[0].meanBytes(), 1e-9, "A " + p[0]);
        assertEquals(64, p[1].meanBytes(), 1e-9, "B " + p[1]);
        assertEquals(64, p[2].meanBytes(), 1e-9, "C " + p[2]);
    }

    @Test
    void unevenRangesGiveTheGridWideMeanSoPlacementDoesNotDrift() {
        // spmv: row lengths uniform in 16 x [0.5, 1.5]; the mean of 16 sampled distances was 0.5 % long, which
        // placement multiplies by the block index (a whole chunk off by the grid's end)
        WorkloadProvider w = BuiltinWorkloads.byName("spmv");
        Workload wl = w.create(Params.validate(w.parameters(), Map.of("rows", 65536)), 1);
        double trueMean = (double) wl.allocations().get(1).bytes() / 8192; // colIdx over 8192 blocks of 8 rows
        CtaStrideProfile col = profile("spmv", "rows", 65536)[1];
        assertEquals(trueMean, col.meanBytes(), 0.002 * trueMean, col.toString());
        assertTrue(col.cov() > 0.05 && col.cov() < 0.5, col.toString());
    }

    // ---------------------------------------------------------------- synthetic kernels: one warp per block

    /** Block b's one warp: per access j, the 32 addresses {@code addr(b, j, lane)}; {@code accesses(b)} of them. */
    private static Kernel kernel(int ctas, java.util.function.IntUnaryOperator accesses, AddressOf addr) {
        return new Kernel() {
            @Override public String name() { return "k"; }
            @Override public int ctas() { return ctas; }
            @Override public int threadsPerCta() { return 32; }
            @Override public WarpProgram program(int cta, int warp) {
                return new WarpProgram() {
                    int j;
                    @Override public boolean next(WarpInstruction in) {
                        if (j >= accesses.applyAsInt(cta)) return false;
                        in.memory(WarpInstruction.Kind.LOAD, 4, -1, false);
                        for (int l = 0; l < 32; l++) in.addresses[l] = BASE + addr.at(cta, j, l);
                        j++;
                        return true;
                    }
                };
            }
        };
    }

    interface AddressOf { long at(int cta, int access, int lane); }

    private static CtaStrideProfile profileOne(Kernel k) {
        return new CtaStrideProfiler(List.of(k)).profile(new Allocation(0, "a", BASE, 1L << 30, AllocationHint.NONE, false));
    }

    @Test
    void aPerBlockOffsetThatIsALoadedValueIsNotAStride() {
        // a block per vertex reading edges[off[v] + 32 j + lane]: every thread moves alike between two blocks,
        // but by the previous vertex's edge count, 64 for 70 % of vertices and 2048 for the rest
        long[] off = new long[4097];
        java.util.Random r = new java.util.Random(7);
        int[] degree = new int[4096];
        for (int v = 0; v < 4096; v++) {
            degree[v] = r.nextDouble() < 0.7 ? 64 : 2048;
            off[v + 1] = off[v] + 4L * degree[v];
        }
        CtaStrideProfile p = profileOne(kernel(4096, v -> degree[v] / 32, (v, j, l) -> off[v] + 4L * (32 * j + l)));
        assertTrue(p.cov() > 0.5, "ranges from loaded offsets stay a profile with their spread: " + p);
    }

    @Test
    void aNegativeStrideIsReportedAsOne() {
        // blocks walking down an array (needle's anti-diagonals): CODA leaves such an object fine
        CtaStrideProfile p = profileOne(kernel(256, v -> 2, (v, j, l) -> (1L << 20) - 1024L * v + 128L * j + 4L * l));
        assertEquals(-1024, p.meanBytes(), 1e-9, p.toString());
        assertEquals(0, p.cov(), 1e-9);
    }

    @Test
    void twoDistancesInEqualMeasureAreNoStride() {
        // odd blocks 1 KB past their predecessor, even ones 2 KB: no runtime-constant distance
        CtaStrideProfile p = profileOne(kernel(256, v -> 1, (v, j, l) -> 1536L * v + (v % 2 == 1 ? -512 : 0) + 4L * l));
        assertTrue(p.cov() > 0.2, "a profile with the spread of the two distances, not 1 KB at CoV 0: " + p);
        assertEquals(1536, p.meanBytes(), 16, p.toString());
    }

    @Test
    void aWarpWhoseAccessesFallOutOfStepStillShowsTheStride() {
        // every third block makes a first access to a data-dependent place before its regular ones: the ranks no
        // longer line up in two pairs of three, and the blocks' lowest addresses give the stride instead
        CtaStrideProfile p = profileOne(kernel(256, v -> v % 3 == 0 ? 3 : 2,
                (v, j, l) -> v % 3 == 0 && j == 0 ? (1L << 24) + 4096L * ((v * 37) % 101) + 8L * l : 512L * v + 128L * (v % 3 == 0 ? j - 1 : j) + 4L * l));
        assertEquals(512, p.meanBytes(), 1e-9, p.toString());
        assertEquals(0, p.cov(), 1e-9);
    }
}
