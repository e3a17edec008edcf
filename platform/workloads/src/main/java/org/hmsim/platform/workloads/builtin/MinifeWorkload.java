package org.hmsim.platform.workloads.builtin;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;
import org.hmsim.platform.workloads.gen.StencilCsr;

/**
 * miniFE's conjugate-gradient solve: per iteration a CSR SpMV with the 27-point matrix of an
 * n x n x n hexahedral mesh (double values, one warp per row), two dot products and three waxpby
 * vector updates. The matrix is streamed once per iteration, so each page gets an early burst of
 * accesses and then rare revisits (seed 000 §4, minife). Matrix assembly is not modelled.
 */
public final class MinifeWorkload extends BuiltinProvider {
    private static final int THREADS = 256;
    // allocations
    private static final int ROWPTR = 0, COLS = 1, VALS = 2, X = 3, R = 4, P = 5, AP = 6, DOT = 7;

    public MinifeWorkload() {
        super("minife", "model of Mantevo miniFE's CG solve: per iteration a CSR SpMV (one warp per row, 27-point-stencil "
                        + "matrix of an n^3 mesh, double values, x gathered through column indices), 2 dot products (one atomic "
                        + "per warp) and 3 waxpby updates. Assembly and the host-side reductions are not modelled. Footprint "
                        + "about n^3 x (27 x 12 B + 36 B).",
                List.of(
                        ParamSpec.integer("n", 20, 2, 400, "mesh edge; rows = n^3, ~27 entries per row; footprint ~ 360 B x n^3"),
                        ParamSpec.integer("iterations", 3, 1, 10_000, "CG iterations (6 kernels each)"),
                        ParamSpec.integer("compute", 4, 1, 10_000, "arithmetic cycles per element in the vector kernels")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = p.getInt("n"), iterations = p.getInt("iterations"), compute = p.getInt("compute");
        StencilCsr m = new StencilCsr(n);
        int rows = m.rows();
        long vec = 8L * rows;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("rowPtr", 4L * (rows + 1), AllocationHint.NONE, true),
                new AllocationSpec("cols", 4L * m.nnz(), AllocationHint.NONE, true),
                new AllocationSpec("values", 8L * m.nnz(), AllocationHint.NONE, true),
                new AllocationSpec("x", vec), new AllocationSpec("r", vec), new AllocationSpec("p", vec),
                new AllocationSpec("Ap", vec), new AllocationSpec("dot", 64));
        int spmvCtas = (rows + THREADS / 32 - 1) / (THREADS / 32);
        int vecCtas = (rows + THREADS - 1) / THREADS;
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++) {
                ks.add(new SimpleKernel("matvec", spmvCtas, THREADS, 0, (cta, warp) -> {
                    int row = cta * (THREADS / 32) + warp;
                    return new CsrVectorProgram(m, b[ROWPTR], b[COLS], b[VALS], b[P], b[AP], 8, row < rows ? row : -1);
                }));
                ks.add(vector("dot_p_Ap", vecCtas, rows, compute, b[P], b[AP], -1, b[DOT]));
                ks.add(vector("waxpby_x", vecCtas, rows, compute, b[X], b[P], b[X], -1));
                ks.add(vector("waxpby_r", vecCtas, rows, compute, b[R], b[AP], b[R], -1));
                ks.add(vector("dot_r_r", vecCtas, rows, compute, b[R], -1, -1, b[DOT]));
                ks.add(vector("waxpby_p", vecCtas, rows, compute, b[R], b[P], b[P], -1));
            }
            return ks;
        });
    }

    private static Kernel vector(String name, int ctas, int rows, int compute, long in1, long in2, long out, long dot) {
        return new SimpleKernel(name, ctas, THREADS, dot >= 0 ? THREADS * 8 : 0,
                (cta, warp) -> new VectorProgram(in1, in2, out, dot, rows, cta, warp, compute));
    }

    /** One element per thread: load in1 (and in2), compute, store out, or for a dot an atomic add per warp. */
    static final class VectorProgram implements WarpProgram {
        private final long in1, in2, out, dot;
        private final long first;
        private final int mask, compute;
        private int pc;

        VectorProgram(long in1, long in2, long out, long dot, int rows, int cta, int warp, int compute) {
            this.in1 = in1;
            this.in2 = in2;
            this.out = out;
            this.dot = dot;
            this.first = (long) cta * THREADS + (long) warp * 32;
            this.mask = Lanes.first(rows - first);
            this.compute = compute;
        }

        @Override
        public boolean next(WarpInstruction o) {
            if (mask == 0) return false;
            while (true) {
                switch (pc++) {
                    case 0 -> { fill(o, Kind.LOAD, in1, false); return true; }
                    case 1 -> { if (in2 < 0) continue; fill(o, Kind.LOAD, in2, false); return true; }
                    case 2 -> { o.compute(dot >= 0 ? compute + 10 : compute, true); return true; }
                    case 3 -> {
                        if (out >= 0) fill(o, Kind.STORE, out, true);
                        else { // the warp's partial sum, added by lane 0
                            o.memory(Kind.ATOMIC, 8, 1, true);
                            o.addresses[0] = dot;
                        }
                        return true;
                    }
                    default -> { return false; }
                }
            }
        }

        private void fill(WarpInstruction o, Kind kind, long base, boolean wait) {
            o.memory(kind, 8, mask, wait);
            for (int l = 0; l < 32; l++) o.addresses[l] = base + 8 * (first + l);
        }
    }
}
