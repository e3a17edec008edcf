package org.hmsim.platform.workloads.builtin;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.CtaStrideHints;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;
import org.hmsim.platform.workloads.gen.Hash;

/**
 * Models of seed 004's five sharing classes (Table 2): a grid of thread blocks, each with its own
 * per-block footprint, plus reads of a shared, irregularly indexed array. Not any one benchmark: the
 * per-block data layouts the paper classifies its 20 benchmarks by.
 *
 * <ul>
 * <li>{@code own}: block c reads {@code strips} strips of {@code own_bytes} bytes, strip s at
 * {@code (s × ctas + c) × own_bytes} (one strip: a contiguous range, the CSR edge range of its
 * vertices; several: a row-major array whose rows hold every block's strip, as KM's
 * {@code out[i*npoints+pid]}), coalesced; with {@code halo > 0} it also
 * reads the first {@code halo} fraction of block c+1's range (a stencil's or NW tile's neighbour rows),
 * which makes boundary pages shared by two blocks;</li>
 * <li>{@code out}: each warp writes one 128 B line at {@code c × threads × 4 + warp × 128} (one result
 * per thread: a 1 KB per-block stride for 256 threads, so several blocks share a page);</li>
 * <li>{@code shared}: a fraction {@code shared_fraction} of the loads go to random lines of a shared
 * array (a graph's level/rank/label[neighbour] data, a histogram, a pivot row).</li>
 * </ul>
 * The classes differ in how much of the traffic the shared array takes: block-exclusive 30 %, core-exclusive
 * 45 %, core-majority 55 %, sharing 70 % (plus halos). Seed 004 gives no access mix; its Fig. 10 has CODA cut
 * remote traffic less on core-exclusive apps (34 %) than on block-exclusive ones (47 %): the core-exclusive set
 * holds GE, SPMV and MM, whose pivot rows, x vectors and panels every block reads.
 * Warps issue {@code mlp} independent loads, then {@code compute} cycles that need them. The workload
 * declares each object's per-block stride ({@link CtaStrideHints}) as seed 004's compiler pass would:
 * {@code own_bytes} for own, {@code threads × 4} for out, 0 (shared/irregular) for shared.
 * {@code stride_error} scales the declared own stride, to model an inaccurate (profiled) estimate.
 * {@code declare: false} leaves the own stride undeclared (-1), as when the compiler cannot simplify it
 * (a graph's edge range comes from a loaded offset array), so CODA has to profile it (§4.1 fallback).
 * {@code degree_cov > 0} makes the per-block ranges uneven, a CSR graph's: block c reads
 * {@code own_bytes × w_c} (whole lines), ranges back to back, w_c log-normal with mean 1 and that
 * coefficient of variation (seed 004 Fig. 12's regular vs irregular graphs).
 */
public final class CtaFootprintWorkload extends BuiltinProvider {
    private final String cls;

    private CtaFootprintWorkload(String name, String cls, String description, int ctas, int ownBytes, int strips, double halo, double shared) {
        super(name, "model of seed 004's " + cls + " class (Table 2): " + description
                        + " Per block: own_bytes read contiguously (+ halo of the next block's), one 128 B result line per warp, "
                        + "shared_fraction of loads to random lines of a shared array. Declares per-object block strides for CODA.",
                List.of(
                        ParamSpec.integer("ctas", ctas, 1, 1 << 20, "thread blocks in the grid"),
                        ParamSpec.integer("threads", 256, 32, 1024, "threads per block"),
                        ParamSpec.size("own_bytes", ownBytes, 128, 1L << 26, "bytes of each strip a block reads exclusively (the runtime-constant stride B between blocks)"),
                        ParamSpec.integer("strips", strips, 1, 4096, "strips per block: 1 = one contiguous range; n = n strips, one per row of a row-major "
                                + "array whose rows hold every block's strip (KM's out[i*npoints+pid], SoA layouts)"),
                        ParamSpec.real("halo", halo, 0, 1, "fraction of the next block's range each block also reads"),
                        ParamSpec.real("shared_fraction", shared, 0, 0.95, "fraction of loads that go to random lines of the shared array"),
                        ParamSpec.size("shared_bytes", 4L << 20, 128, 1L << 32, "size of the shared array"),
                        ParamSpec.integer("mlp", 4, 1, 64, "independent loads a warp issues before it waits for them"),
                        ParamSpec.integer("compute", 8, 0, 100_000, "arithmetic cycles after each group of loads"),
                        ParamSpec.integer("iterations", 1, 1, 1000, "kernel launches (each runs the whole grid)"),
                        ParamSpec.real("stride_error", 1.0, 0.01, 100, "declared own stride = own_bytes x stride_error (1 = exact compiler analysis)"),
                        ParamSpec.bool("declare", true, "declare the own stride (the compiler's analysis); false = unknown, left to profiling"),
                        ParamSpec.real("degree_cov", 0, 0, 10, "uneven per-block ranges (a CSR graph's degrees): coefficient of variation of the "
                                + "range lengths, mean own_bytes; needs strips = 1")));
        this.cls = cls;
    }

    public static CtaFootprintWorkload blockExclusive() {
        return new CtaFootprintWorkload("block-exclusive", "block-exclusive",
                "each block's data spans several pages no other block touches (BFS/DC/PR/SSSP edge ranges); a third of the loads are neighbour-data reads (level/rank[neighbour]).", 512, 16 << 10, 1, 0, 0.3);
    }

    public static CtaFootprintWorkload coreExclusive() {
        return new CtaFootprintWorkload("core-exclusive", "core-exclusive",
                "blocks' ranges are smaller than a page, so a page is shared by neighbouring blocks that affinity scheduling keeps on one GPU (KM/NN/CFD); 45 % of the loads read shared data (GE's pivot row, SPMV's x vector, MM's row and column panels, KM's centres). Layout: 16 strips of 1 KB per block in rows of all blocks' strips.", 512, 1 << 10, 16, 0, 0.45);
    }

    public static CtaFootprintWorkload blockMajority() {
        return new CtaFootprintWorkload("block-majority", "block-majority",
                "multi-page ranges plus a quarter of the next block's range (CC/NW halos), a third of the loads to shared data.", 512, 16 << 10, 1, 0.25, 0.3);
    }

    public static CtaFootprintWorkload coreMajority() {
        return new CtaFootprintWorkload("core-majority", "core-majority",
                "sub-page ranges with halos and 55 % of the loads to shared data (MG's suffix-tree walks, DWT). Layout as core-exclusive.", 512, 1 << 10, 16, 0.25, 0.55);
    }

    public static CtaFootprintWorkload sharing() {
        return new CtaFootprintWorkload("sharing", "sharing",
                "most loads go to the shared array; each block also reads its own sub-page range and half its neighbour's (TC/HS). Layout as core-exclusive.", 512, 1 << 10, 16, 0.5, 0.7);
    }

    @Override
    public Workload create(Params p, long seed) {
        int ctas = p.getInt("ctas");
        int threads = p.getInt("threads");
        long own = Math.max(128, p.getLong("own_bytes") / 128 * 128);
        int strips = p.getInt("strips");
        double halo = p.getDouble("halo");
        double shared = p.getDouble("shared_fraction");
        long sharedBytes = Math.max(128, p.getLong("shared_bytes") / 128 * 128);
        int mlp = p.getInt("mlp");
        int compute = p.getInt("compute");
        int iterations = p.getInt("iterations");
        long declared = Math.max(1, Math.round(own * p.getDouble("stride_error")));
        long outStride = 4L * threads;
        double cov = p.getDouble("degree_cov");
        if (cov > 0 && strips != 1) throw new IllegalArgumentException(name() + ": degree_cov needs strips = 1 (one contiguous range per block), strips = " + strips);
        long[] start = null; // per-block range starts (uneven ranges), ctas + 1 entries
        if (cov > 0) {
            // log-normal weights with mean 1 and coefficient of variation cov: sigma^2 = ln(1 + cov^2)
            double sigma = Math.sqrt(Math.log(1 + cov * cov));
            start = new long[ctas + 1];
            for (int c = 0; c < ctas; c++) {
                double u1 = Math.max(1e-12, Hash.unit(Hash.of(seed, 0x6465, c))), u2 = Hash.unit(Hash.of(seed, 0x6466, c));
                double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
                long lines = Math.max(1, Math.round(own / 128.0 * Math.exp(sigma * z - sigma * sigma / 2)));
                start[c + 1] = start[c] + 128 * lines;
            }
        }
        long ownTotal = start == null ? own * ctas * strips : start[ctas];
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("own", ownTotal, AllocationHint.NONE, true),
                new AllocationSpec("out", outStride * ctas, AllocationHint.NONE, false),
                new AllocationSpec("shared", sharedBytes, AllocationHint.NONE, true));
        Shape s = new Shape(ctas, threads, own, strips, halo, shared, sharedBytes, mlp, compute, seed, start);
        return new Hinted(new SimpleWorkload(name(), allocs, base -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++) {
                int iter = it;
                ks.add(new SimpleKernel(cls + "_kernel", ctas, threads, 0,
                        (cta, warp) -> new Program(s, base[0], base[1], base[2], cta, warp, iter)));
            }
            return ks;
        }), new long[] {p.getBoolean("declare") ? declared : -1, outStride, 0});
    }

    /** The workload with its per-object stride hints. */
    private record Hinted(SimpleWorkload inner, long[] strides) implements Workload, CtaStrideHints {
        @Override public String name() { return inner.name(); }
        @Override public List<AllocationSpec> allocations() { return inner.allocations(); }
        @Override public List<Kernel> kernels(long[] baseAddresses) { return inner.kernels(baseAddresses); }
        @Override public long ctaStrideBytes(int allocation) { return strides[allocation]; }
    }

    private record Shape(int ctas, int threads, long own, int strips, double halo, double shared, long sharedBytes, int mlp, int compute, long seed,
                         long[] start) {
        /** Lines of block b's own data. */
        long lines(int b) { return start == null ? own / 128 * strips : (start[b + 1] - start[b]) / 128; }
    }

    /**
     * One warp: its share of the block's own lines (warp w takes lines w, w + warps, …), then of the
     * halo lines of block c+1, with shared-array loads mixed in evenly (Bresenham), grouped by mlp with
     * compute between groups; finally the store of its result line.
     */
    static final class Program implements WarpProgram {
        private final Shape s;
        private final long own, out, shared;
        private final int cta, warp, warps, iter;
        private final int ownLines, haloLines, mine, sharedCount, total;
        private int k, inGroup, sharedDone;
        private boolean stored;

        Program(Shape s, long own, long out, long shared, int cta, int warp, int iter) {
            this.s = s;
            this.own = own;
            this.out = out;
            this.shared = shared;
            this.cta = cta;
            this.warp = warp;
            this.iter = iter;
            this.warps = (s.threads() + Lanes.W - 1) / Lanes.W;
            this.ownLines = (int) s.lines(cta);
            this.haloLines = (int) Math.round(ownLines * s.halo());
            int lines = ownLines + haloLines;
            this.mine = lines / warps + (warp < lines % warps ? 1 : 0);
            this.sharedCount = (int) Math.round(mine * s.shared() / (1 - s.shared()));
            this.total = mine + sharedCount;
        }

        /** Line j of block b's own data: strip j / (lines per strip), in the row of that strip. */
        private long ownLine(int b, int j) {
            if (s.start() != null) return own + s.start()[b] + 128L * (j % s.lines(b)); // uneven ranges (one strip)
            long perStrip = s.own() / 128;
            long strip = j / perStrip, within = j % perStrip;
            return own + strip * s.ctas() * s.own() + (long) b * s.own() + 128 * within;
        }

        @Override
        public boolean next(WarpInstruction o) {
            if (k < total) {
                if (inGroup == s.mlp()) {
                    inGroup = 0;
                    o.compute(Math.max(1, s.compute()), true);
                    return true;
                }
                // Bresenham: shared loads spread evenly among own ones
                boolean sharedLoad = (long) (k + 1) * sharedCount / total > sharedDone;
                long line;
                if (sharedLoad) {
                    line = shared + 128 * Hash.below(Hash.of(s.seed(), cta, warp, ((long) iter << 32) | k), s.sharedBytes() / 128);
                    sharedDone++;
                } else {
                    int j = (k - sharedDone) * warps + warp; // the warp's j-th own/halo line of the block
                    line = j < ownLines ? ownLine(cta, j) : ownLine((cta + 1) % s.ctas(), j - ownLines);
                }
                o.memory(Kind.LOAD, 4, -1, false);
                for (int l = 0; l < Lanes.W; l++) o.addresses[l] = line + 4L * l;
                k++;
                inGroup++;
                return true;
            }
            if (!stored) {
                stored = true;
                o.memory(Kind.STORE, 4, Lanes.existing(warp, s.threads()), true);
                long line = out + (long) cta * 4 * s.threads() + 128L * warp;
                for (int l = 0; l < Lanes.W; l++) o.addresses[l] = line + 4L * l;
                return true;
            }
            return false;
        }
    }
}
