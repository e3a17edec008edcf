package org.hmsim.platform.workloads.builtin.uvm;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * Models of seed 002's regular (coalesced, streaming) applications, as sequences of streaming passes
 * ({@link StreamPass}) over float arrays of {@code elements} each. Without sharing: 2DCONV, 3DCONV (one
 * stencil kernel, in → out). With sharing across kernels (§4.4, Fig 4): LUD (K kernels over the trailing part
 * of one matrix, shrinking step by step to its last block as Rodinia's {@code lud_internal} grids do), SRAD (two kernels per iteration over the same six image-sized arrays), CONS
 * (convolutionSeparable: the row pass writes a buffer the column pass re-streams), SCAN (the CUDA SDK's
 * scanExclusiveLarge: block scan src to dst, a strided gather of every block's last words of both, uniform
 * add over dst). Footprints are scaled down from the paper's 7-70 MB for
 * simulation time; {@code elements} scales them.
 */
public final class RegularUvmWorkload extends BuiltinProvider {
    /** The modelled applications. */
    public enum App { CONV2D("etc-2dconv"), CONV3D("etc-3dconv"), LUD("etc-lud"), SRAD("etc-srad"), CONS("etc-cons"), SCAN("etc-scan");
        final String id;
        App(String id) { this.id = id; }
    }

    private final App app;

    public RegularUvmWorkload(App app) {
        super(app.id, description(app), List.of(
                ParamSpec.integer("elements", app == App.SRAD ? 1 << 19 : 1 << 20, 1024, 1 << 28,
                        "floats per array (4 B each); see the description for the number of arrays" + (app == App.SRAD ? " (six: half the other models' elements, 12 MB)" : "")),
                ParamSpec.integer("per_thread", app == App.CONV3D ? 1 : 4, 1, 1 << 16, "elements per thread: a CTA streams a tile of threads x per_thread consecutive elements, CTAs in order, so the footprint grows page by page"),
                ParamSpec.integer("threads", 256, 32, 1024, "threads per CTA"),
                ParamSpec.integer("compute", 4, 0, 10_000, "arithmetic cycles per element"),
                ParamSpec.integer("iterations", app == App.LUD ? 16 : 2, 1, 1000, "LUD: kernels (trailing-matrix steps; Rodinia takes one per 16 rows); SRAD: iterations of its two kernels; others: ignored")));
        this.app = app;
    }

    private static String description(App a) {
        return switch (a) {
            case CONV2D -> "model of Polybench 2DCONV (seed 002: regular, no sharing): one 3x3-stencil kernel streaming A (rows above/below as element shifts) into B. 2 arrays.";
            case CONV3D -> "model of Polybench 3DCONV (seed 002: regular, no sharing): PolyBench/GPU's host loop launches one kernel per inner plane i "
                    + "(NI-2 launches), each reading planes i-1, i, i+1 of A and writing plane i of B (one element per thread). 2 arrays; the launches share A's "
                    + "planes, but the paper labels 3DCONV no-sharing and so does the model.";
            case LUD -> "model of Rodinia LUD (seed 002: regular, sharing): `iterations` steps, each a kernel streaming (read+write) the trailing part of one matrix, "
                    + "which shrinks by 1/iterations per step down to the last block (Rodinia's lud_internal; its diagonal and perimeter kernels touch the same pages). 1 array.";
            case SRAD -> "model of Rodinia SRAD (seed 002: regular, sharing): per iteration srad_cuda_1 reads J (rows above/below) and writes c and the four "
                    + "derivatives dN, dS, dW, dE; srad_cuda_2 reads J, c and the derivatives and writes J. 6 arrays.";
            case CONS -> "model of CUDA SDK convolutionSeparable (seed 002: regular, sharing): row pass in -> buf (streaming), column pass buf -> out "
                    + "(convolutionColumnsKernel's 16 x 8 blocks, each a 16-column tile of a 64-row band plus halos). 3 arrays.";
            case SCAN -> "model of the CUDA SDK scan (scanExclusiveLarge; seed 002: regular, sharing): block scan src -> dst; a gather of every 1024-element "
                    + "block's last src and dst word into the block sums (one word per 4 KB of both arrays: every page, almost no data); uniform add over dst. 2 arrays + sums.";
        };
    }

    @Override
    public Workload create(Params p, long seed) {
        long n = p.getInt("elements");
        int ctas = p.getInt("per_thread"), threads = p.getInt("threads"), compute = p.getInt("compute"), it = p.getInt("iterations");
        List<AllocationSpec> allocs = new ArrayList<>();
        String[] names = switch (app) {
            case CONV2D, CONV3D -> new String[] {"A", "B"};
            case LUD -> new String[] {"m"};
            case SRAD -> new String[] {"J", "c", "dN", "dS", "dW", "dE"};
            case CONS -> new String[] {"in", "buf", "out"};
            case SCAN -> new String[] {"src", "dst"};
        };
        for (String s : names) allocs.add(new AllocationSpec(s, 4 * n));
        if (app == App.SCAN) allocs.add(new AllocationSpec("sums", Math.max(4, 4 * n / 1024)));
        long side = Math.max(1, (long) Math.sqrt(n));
        long plane = Math.max(1, (long) Math.cbrt((double) n * n));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            switch (app) {
                case CONV2D -> ks.add(pass("conv2d", new long[] {b[0]}, new long[] {-side, 0, side}, new long[] {b[1]}, 0, n, n, ctas, threads, compute, false));
                case CONV3D -> {
                    for (long i = 1; (i + 2) * plane <= n; i++)
                        ks.add(pass("conv3d_" + i, new long[] {b[0]}, new long[] {-plane, 0, plane}, new long[] {b[1]}, i * plane, (i + 1) * plane, n, ctas, threads,
                                compute, false));
                }
                case LUD -> {
                    for (int k = 0; k < it; k++)
                        ks.add(pass("lud_" + k, new long[] {b[0]}, new long[] {0}, new long[] {b[0]}, n * k / it, n, n, ctas, threads, compute, k > 0));
                }
                case SRAD -> {
                    for (int k = 0; k < it; k++) {
                        // Rodinia srad_cuda_1: J and its N/S/W/E neighbours in, c and the four derivatives out
                        ks.add(pass("srad1_" + k, new long[] {b[0]}, new long[] {-side, 0, side}, new long[] {b[1], b[2], b[3], b[4], b[5]}, 0, n, n,
                                ctas, threads, compute, k > 0));
                        // srad_cuda_2: J, c and the derivatives in (c's south/east neighbours share c's lines or the next row), J out
                        ks.add(pass("srad2_" + k, new long[] {b[0], b[1], b[2], b[3], b[4], b[5]}, new long[] {0}, new long[] {b[0]}, 0, n, n,
                                ctas, threads, compute, true));
                    }
                }
                case CONS -> {
                    ks.add(pass("rows", new long[] {b[0]}, new long[] {-8, 0, 8}, new long[] {b[1]}, 0, n, n, ctas, threads, compute, false));
                    // convolutionColumnsKernel: 16 x 8 blocks over 64-row bands (ColumnTilePass); the image is side x rows
                    long rows = n / side;
                    ks.add(new PassKernel(new SimpleKernel("columns", ColumnTilePass.blocks(side, rows), ColumnTilePass.BX * ColumnTilePass.BY, 0,
                            (cta, warp) -> new ColumnTilePass(b[1], b[2], side, rows, cta, warp, compute)), true));
                }
                case SCAN -> {
                    long sums = Math.max(1, n / 1024);
                    ks.add(pass("scan_shared", new long[] {b[0]}, new long[] {0}, new long[] {b[1]}, 0, n, n, ctas, threads, compute, false));
                    // scanExclusiveShared2: thread t reads dst[1023 + 1024 t] and src[1023 + 1024 t]
                    int gatherCtas = (int) Math.max(1, (sums + threads - 1) / threads);
                    ks.add(new PassKernel(new SimpleKernel("scan_sums", gatherCtas, threads, 0,
                            (cta, warp) -> new StridedGather(new long[] {b[1], b[0]}, b[2], 1024, 1023, sums, threads, cta, warp, compute)), true));
                    // uniformUpdate: dst += the block's sum (one value per CTA, register/L1-resident): only dst streams
                    ks.add(pass("uniform_update", new long[] {b[1]}, new long[] {0}, new long[] {b[1]}, 0, n, n, ctas, threads, compute, true));
                }
            }
            return ks;
        });
    }

    /** A streaming pass over elements [from, to) of arrays of {@code elements} floats (shifted loads stay inside the arrays). */
    private static Kernel pass(String name, long[] reads, long[] shifts, long[] writes, long from, long to, long end, int perThread, int threads, int compute,
                               boolean shares) {
        long tile = (long) perThread * threads;
        int ctas = (int) Math.max(1, (to - from + tile - 1) / tile);
        return new PassKernel(new SimpleKernel(name, ctas, threads, 0,
                (cta, warp) -> new StreamPass(reads, shifts, writes, from, to, end, perThread, threads, cta, warp, compute)), shares);
    }
}
