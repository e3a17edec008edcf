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
 * Models of seed 002's irregular applications (Polybench matrix-vector kernels), built from
 * {@link MatrixPass}: a row-per-thread pass (uncoalesced: each warp load touches 32 rows, several pages)
 * and, for ATAX, BICG and MVT, a column-per-thread pass over the same matrix (the second kernel shares A
 * with the first). The order is PolyBench/GPU's: ATAX ({@code atax_kernel1} tmp = A x) and MVT
 * ({@code mvt_kernel1} x1 = A y1) run the row pass first; BICG's {@code bicg_kernel1} computes s = A^T r,
 * the coalesced column pass, and only {@code bicg_kernel2} (q = A p) walks rows. GESUMMV walks
 * two matrices A and B row-per-thread in one kernel. With all warps resident, the pages in use at once
 * grow with the number of active SMs — the working set MT throttles (seed 002 §4.2).
 */
public final class IrregularUvmWorkload extends BuiltinProvider {
    public enum App { ATAX("etc-atax"), BICG("etc-bicg"), GESUMMV("etc-gesummv"), MVT("etc-mvt");
        final String id;
        App(String id) { this.id = id; }
    }

    private final App app;

    public IrregularUvmWorkload(App app) {
        super(app.id, "model of Polybench " + app.name() + " (seed 002: irregular): " + switch (app) {
                    case ATAX -> "tmp = A x row-per-thread, then y = A^T tmp column-per-thread (shares A).";
                    case BICG -> "s = A^T r column-per-thread (coalesced), then q = A p row-per-thread (shares A): PolyBench/GPU's kernel order.";
                    case GESUMMV -> "y = alpha A x + beta B x, row-per-thread over two matrices in one kernel.";
                    case MVT -> "x1 = A y1 row-per-thread, then x2 = A^T y2 column-per-thread (shares A).";
                } + " Matrices rows x cols floats; footprint 4 x rows x cols per matrix (scaled down from the paper's 7-70 MB).",
                List.of(ParamSpec.integer("rows", 1024, 32, 1 << 20, "matrix rows (one thread per row in the row pass)"),
                        ParamSpec.integer("cols", 1024, 32, 1 << 20, "matrix columns (one thread per column in the column pass)"),
                        ParamSpec.integer("threads", 64, 32, 1024, "threads per CTA"),
                        ParamSpec.integer("unroll", 4, 1, 64, "loads per accumulate (memory-level parallelism per warp)"),
                        ParamSpec.integer("compute", 2, 0, 10_000, "arithmetic cycles per accumulate")));
        this.app = app;
    }

    @Override
    public Workload create(Params p, long seed) {
        long rows = p.getInt("rows"), cols = p.getInt("cols");
        int threads = p.getInt("threads"), unroll = p.getInt("unroll"), compute = p.getInt("compute");
        List<AllocationSpec> allocs = new ArrayList<>();
        allocs.add(new AllocationSpec("A", 4 * rows * cols));
        if (app == App.GESUMMV) allocs.add(new AllocationSpec("B", 4 * rows * cols));
        allocs.add(new AllocationSpec("out1", 4 * Math.max(rows, cols)));
        allocs.add(new AllocationSpec("out2", 4 * Math.max(rows, cols)));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            if (app == App.GESUMMV) {
                ks.add(matrix("gesummv", new long[] {b[0], b[1]}, b[2], true, rows, cols, threads, unroll, compute, false));
            } else if (app == App.BICG) {
                ks.add(matrix("column_pass", new long[] {b[0]}, b[2], false, rows, cols, threads, unroll, compute, false));
                ks.add(matrix("row_pass", new long[] {b[0]}, b[1], true, rows, cols, threads, unroll, compute, true));
            } else {
                ks.add(matrix("row_pass", new long[] {b[0]}, b[1], true, rows, cols, threads, unroll, compute, false));
                ks.add(matrix("column_pass", new long[] {b[0]}, b[2], false, rows, cols, threads, unroll, compute, true));
            }
            return ks;
        });
    }

    private static Kernel matrix(String name, long[] ms, long result, boolean byRow, long rows, long cols, int threads, int unroll, int compute, boolean shares) {
        long span = byRow ? rows : cols;
        int ctas = (int) Math.max(1, (span + threads - 1) / threads);
        return new PassKernel(new SimpleKernel(name, ctas, threads, 0,
                (cta, warp) -> new MatrixPass(ms, result, byRow, rows, cols, threads, cta, warp, unroll, compute)), shares);
    }
}
