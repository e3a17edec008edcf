package org.hmsim.platform.workloads.builtin.frc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.platform.workloads.TestSupport;
import org.hmsim.platform.workloads.WorkloadInspector;
import org.junit.jupiter.api.Test;

/** The global-memory access patterns of the AMD APP SDK kernel models (seed 003 §5). */
class SdkModelsTest {
    private static Workload make(String name, Map<String, Object> params) {
        return TestSupport.create(BuiltinWorkloads.byName(name), params, 1);
    }

    private static List<Integer> lanes(WarpInstruction in) {
        List<Integer> l = new java.util.ArrayList<>();
        for (int i = 0; i < 32; i++) if ((in.activeMask & (1 << i)) != 0) l.add(i);
        return l;
    }

    private static Set<Long> lines64(WarpInstruction in) {
        Set<Long> s = new HashSet<>();
        for (int l : lanes(in)) s.add(in.addresses[l] / 64);
        return s;
    }

    /** Byte offset of lane l into its allocation. */
    private static long off(long[] base, WarpInstruction in, int[] owner, int l) { return in.addresses[l] - base[owner[l]]; }

    @Test
    void mersenneTwisterLoadsOneSeedAndStoresBurstsOfPartialLines() {
        Workload w = make("sdk-mersenne-twister", Map.of("seeds", 1024, "mul_factor", 4));
        long[] base = WorkloadInspector.layout(w.allocations());
        Map<Long, Integer> written = new HashMap<>(); // gaussianRand byte offset -> times
        int[] count = new int[4]; // loads, stores, alu, alu before the first store
        boolean[] stored = new boolean[1024];
        var s = WorkloadInspector.inspect(w, 10_000_000, (k, c, wp, in, owner) -> {
            int warpId = c * 8 + wp;
            if (in.kind == Kind.COMPUTE) {
                count[2]++;
                if (!stored[warpId]) count[3]++;
                return;
            }
            assertEquals(-1, in.activeMask);
            assertEquals(16, in.bytesPerThread);
            if (in.kind == Kind.LOAD) {
                count[0]++;
                assertEquals(0, owner[0], "loads read seedArray only");
                for (int l = 0; l < 32; l++) assertEquals(16L * (warpId * 32 + l), off(base, in, owner, l), "seed of work-item t at 16 t");
                assertEquals(8, lines64(in).size(), "a warp's seeds are 512 contiguous bytes");
            } else {
                count[1]++;
                stored[warpId] = true;
                assertEquals(1, owner[0], "stores write gaussianRand only");
                assertEquals(32, lines64(in).size(), "each store puts 16 B into each of 32 lines");
                for (int l = 0; l < 32; l++) {
                    if (l > 0) assertEquals(64, in.addresses[l] - in.addresses[l - 1], "lane stride mul_factor x 16 B");
                    written.merge(off(base, in, owner, l), 1, Integer::sum);
                }
            }
        });
        assertEquals(1, s.kernels());
        assertEquals(32, count[0]);
        assertEquals(4 * 32, count[1], "mul_factor stores per warp");
        assertEquals(32 * (64 + 4 * 40 + 4 * 60), count[2], "init + mul_factor x (generation + Box-Muller) ALU instructions");
        assertEquals(32 * (64 + 4 * 40 + 60), count[3], "generation precedes the first store");
        assertEquals(1024 * 4, written.size(), "every float4 of the output written");
        assertTrue(written.keySet().stream().allMatch(o -> o % 16 == 0 && o < 16L * 1024 * 4));
        assertTrue(written.values().stream().allMatch(n -> n == 1), "each exactly once");
    }

    @Test
    void dwtHaar1DWritesEveryDetailOnceInHalvingLevels() {
        Workload w = make("sdk-dwt-haar1d", Map.of("length", 4096, "threads", 256));
        long[] base = WorkloadInspector.layout(w.allocations());
        int[] reads = new int[4096], coefs = new int[4096];
        Map<Integer, Integer> activeLanesPerLevel = new HashMap<>(); // store width in kernel 0 -> stores
        int[] averages = new int[2];
        var s = WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, owner) -> {
            if (in.kind == Kind.LOAD) {
                for (int l : lanes(in)) {
                    assertEquals(0, owner[l], "loads read inSignal");
                    reads[(int) (off(base, in, owner, l) / 4)]++;
                }
                for (int l = 1; l < 32; l++) assertEquals(4, in.addresses[l] - in.addresses[l - 1], "unit stride");
            } else if (in.kind == Kind.STORE) {
                if (owner[lanes(in).get(0)] == 2) {
                    averages[k]++;
                    return;
                }
                List<Integer> ls = lanes(in);
                for (int l : ls) {
                    assertEquals(1, owner[l]);
                    coefs[(int) (off(base, in, owner, l) / 4)]++;
                }
                for (int i = 1; i < ls.size(); i++) assertEquals(4, in.addresses[ls.get(i)] - in.addresses[ls.get(i - 1)], "contiguous details");
                if (k == 0) activeLanesPerLevel.merge(ls.size(), 1, Integer::sum);
            }
        });
        // 4096 samples, 256 work-items: 8 groups x 9 levels, then the host's 8 averages in one group of 4 (3 levels)
        assertEquals(2, s.kernels());
        assertEquals(8, averages[0]);
        assertEquals(1, averages[1]);
        for (int i = 0; i < 4096; i++) assertEquals(i < 8 ? 2 : 1, reads[i], "sample " + i + " read once per launch that covers it");
        assertEquals(0, coefs[0]);
        for (int i = 1; i < 4096; i++) assertEquals(1, coefs[i], "detail " + i + " written exactly once");
        // per group and level: 256, 128, 64, 32 active work-items = 8, 4, 2, 1 full warps; then 16, 8, 4, 2, 1 lanes
        assertEquals(Map.of(32, 8 * (8 + 4 + 2 + 1), 16, 8, 8, 8, 4, 8, 2, 8, 1, 8), activeLanesPerLevel);
    }

    @Test
    void blackScholesReadsOneFloat4AndWritesCallAndPutAroundHeavyAlu() {
        Workload w = make("sdk-black-scholes", Map.of("work_items", 2048));
        long[] base = WorkloadInspector.layout(w.allocations());
        int[] kinds = new int[3]; // loads, stores, alu
        List<Integer> order = new java.util.ArrayList<>(); // allocation order of warp (0,0)'s memory instructions
        var s = WorkloadInspector.inspect(w, 10_000_000, (k, c, wp, in, owner) -> {
            if (in.kind == Kind.COMPUTE) { kinds[2]++; return; }
            kinds[in.kind == Kind.LOAD ? 0 : 1]++;
            assertEquals(-1, in.activeMask);
            assertEquals(16, in.bytesPerThread);
            long t0 = c * 256L + wp * 32L;
            for (int l = 0; l < 32; l++) assertEquals(16 * (t0 + l), off(base, in, owner, l), "float4 of work-item t at 16 t");
            assertEquals(in.kind == Kind.LOAD, owner[0] == 0, "randArray is read, call and put written");
            if (c == 0 && wp == 0) order.add(owner[0]);
        });
        assertEquals(List.of(0, 1, 2), order);
        assertEquals(64, kinds[0]);
        assertEquals(128, kinds[1]);
        assertEquals(64 * 450, kinds[2]);
        assertTrue(kinds[2] / (double) (kinds[0] + kinds[1]) > 100, "ALU/memory instruction ratio");
        assertEquals(1, s.kernels());
    }

    @Test
    void reductionStreamsTheInputOnceAndWritesOneWordPerGroup() {
        Workload w = make("sdk-reduction", Map.of("elements", 1 << 14, "threads", 256));
        long[] base = WorkloadInspector.layout(w.allocations());
        int[] bytes = new int[(1 << 14) * 4 / 16];
        Map<Integer, Integer> outputs = new HashMap<>();
        Map<Long, Integer> barriers = new HashMap<>();
        var s = WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, owner) -> {
            if (in.kind == Kind.BARRIER) barriers.merge(((long) c << 8) | wp, 1, Integer::sum);
            if (in.kind == Kind.LOAD) {
                for (int l = 0; l < 32; l++) {
                    assertEquals(0, owner[l]);
                    if (l > 0) assertEquals(32, in.addresses[l] - in.addresses[l - 1], "uint4 pairs: lanes 32 B apart");
                    bytes[(int) (off(base, in, owner, l) / 16)]++;
                }
            } else if (in.kind == Kind.STORE) {
                assertEquals(1, in.activeMask, "work-item 0 writes the group's sum");
                assertEquals(0, wp);
                assertEquals(16L * c, off(base, in, owner, 0));
                outputs.merge(c, 1, Integer::sum);
            }
        });
        for (int b : bytes) assertEquals(1, b, "each uint4 of the input read once");
        assertEquals(8, outputs.size()); // 16 Ki uints / (8 per work-item x 256)
        assertTrue(outputs.values().stream().allMatch(n -> n == 1));
        assertTrue(barriers.values().stream().allMatch(n -> n == 9), "one barrier after the LDS fill and one per halving step (log2 256)");
        assertEquals(1, s.kernels());
    }

    @Test
    void dctReadsTileRowsWithTheCosineTableAndWritesEachOutputOnce() {
        int width = 64, height = 32;
        Workload w = make("sdk-dct", Map.of("width", width, "height", height));
        long[] base = WorkloadInspector.layout(w.allocations());
        int[] inputReads = new int[width * height], outputWrites = new int[width * height];
        Map<Long, List<Long>> inputRows = new HashMap<>(); // (cta, warp) -> first input address of each load
        int[] tableLoads = {0}, barriers = {0};
        var s = WorkloadInspector.inspect(w, 1_000_000, (k, c, wp, in, owner) -> {
            if (in.kind == Kind.BARRIER) barriers[0]++;
            if (in.kind == Kind.COMPUTE || in.kind == Kind.BARRIER) return;
            assertEquals(-1, in.activeMask);
            if (owner[0] == 2) { // the 8x8 cosine table
                tableLoads[0]++;
                assertEquals(Kind.LOAD, in.kind);
                return;
            }
            Set<Long> words = new HashSet<>();
            for (int l = 0; l < 32; l++) words.add(off(base, in, owner, l) / 4);
            if (in.kind == Kind.LOAD) {
                assertEquals(1, owner[0]);
                assertEquals(4, words.size(), "row k, the warp's 4 columns j, each read by the 8 work-items i");
                assertEquals(1, lines64(in).size(), "one line per warp load");
                for (long x : words) inputReads[(int) x]++;
                inputRows.computeIfAbsent(((long) c << 8) | wp, x -> new java.util.ArrayList<>()).add(off(base, in, owner, 0));
            } else {
                assertEquals(0, owner[0]);
                assertEquals(32, words.size());
                assertEquals(4, lines64(in).size(), "4 rows of 8 floats, width x 4 B apart");
                for (long x : words) outputWrites[(int) x]++;
            }
        });
        int ctas = width / 8 * (height / 8);
        assertEquals(1, s.kernels());
        assertEquals(2 * ctas, barriers[0], "one barrier per warp between the loops");
        assertEquals(2 * ctas * 16, tableLoads[0], "the table is read in both loops, every iteration");
        for (int x : inputReads) assertEquals(1, x, "each input element in exactly one warp load");
        for (int x : outputWrites) assertEquals(1, x, "each output element written once");
        for (List<Long> rows : inputRows.values()) {
            assertEquals(8, rows.size());
            for (int k = 1; k < 8; k++) assertEquals(4L * width, rows.get(k) - rows.get(k - 1), "loop k walks down the tile's rows");
        }
    }
}
