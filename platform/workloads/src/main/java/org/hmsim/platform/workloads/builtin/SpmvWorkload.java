package org.hmsim.platform.workloads.builtin;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;
import org.hmsim.platform.workloads.gen.RandomCsr;

/**
 * Sparse matrix-vector product y = A·x in CSR with one warp per row: row pointers, column indices and
 * values are read coalesced per row; x[] is gathered through the generated column indices (a dependent
 * load). Seed 004 §4 (SPMV): row data exclusive per CTA, x shared and random.
 */
public final class SpmvWorkload extends BuiltinProvider {
    public SpmvWorkload() {
        super("spmv", "model of Parboil spmv (as CSR-vector rather than JDS): y = A x, one warp per row; coalesced rowPtr, "
                        + "colIdx and values per row, x gathered through generated column indices (a fraction 'locality' near the "
                        + "diagonal, the rest uniform). Footprint about 8 B x rows x nnz + 12 B x rows.",
                List.of(
                        ParamSpec.integer("rows", 16_384, 32, 1 << 26, "matrix rows (= columns); footprint ~ rows x (8 B x nnz + 12 B)"),
                        ParamSpec.integer("nnz", 16, 1, 4096, "mean stored entries per row"),
                        ParamSpec.real("spread", 0.5, 0, 1, "row lengths are uniform in nnz x [1-spread, 1+spread]"),
                        ParamSpec.real("locality", 0.5, 0, 1, "fraction of entries within 'band' columns of the diagonal"),
                        ParamSpec.integer("band", 1024, 1, 1 << 26, "width in columns of the near-diagonal band"),
                        ParamSpec.integer("threads", 256, 32, 1024, "threads per CTA (one row per warp)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches (same matrix and vectors)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int rows = p.getInt("rows"), threads = p.getInt("threads"), iterations = p.getInt("iterations");
        RandomCsr m = new RandomCsr(rows, p.getInt("nnz"), p.getDouble("spread"), p.getDouble("locality"), p.getInt("band"), seed);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("rowPtr", 4L * (rows + 1), AllocationHint.NONE, true),
                new AllocationSpec("colIdx", 4L * m.nnz(), AllocationHint.NONE, true),
                new AllocationSpec("values", 4L * m.nnz(), AllocationHint.NONE, true),
                new AllocationSpec("x", 4L * rows, AllocationHint.NONE, true),
                new AllocationSpec("y", 4L * rows));
        int warpsPerCta = (threads + 31) / 32;
        int ctas = (rows + warpsPerCta - 1) / warpsPerCta;
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("spmv_csr_vector", ctas, threads, 0, (cta, warp) -> {
                    int row = cta * warpsPerCta + warp;
                    return new CsrVectorProgram(m, b[0], b[1], b[2], b[3], b[4], 4, row < rows ? row : -1);
                }));
            return ks;
        });
    }
}
