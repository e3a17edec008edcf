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
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * Rodinia needle (Needleman-Wunsch): the (n+1)² score matrix is processed in 16x16 blocks along
 * anti-diagonals; kernel d (needle_cuda_shared_1 for the upper-left half, _2 for the lower-right)
 * has one 16-thread CTA per block on block-diagonal d, so the wavefront's dependencies are the
 * kernel order. Each CTA reads its 16 reference rows, the north-west corner, the north row and the
 * west column (stride n+1: uncoalesced), runs 31 intra-tile diagonal steps separated by barriers, and
 * writes its 16 rows back. Consecutive kernels touch neighbouring, weakly time-correlated regions
 * (seed 000 §4: near-linear page CDF; seed 004: pages touched by 1-2 CTAs).
 */
public final class NeedleWorkload extends BuiltinProvider {
    static final int B = 16;

    public NeedleWorkload() {
        super("needle", "model of Rodinia nw (needle_cuda_shared_1/2): anti-diagonal wavefront of 16x16 blocks over an "
                        + "(n+1)^2 int score matrix, one kernel per block diagonal (2n/16-1 kernels), 16-thread CTAs; per CTA 16 "
                        + "reference-row loads, corner/north/west loads (west column strided), 31 compute+barrier steps, 16 row "
                        + "stores. The host traceback is not modelled. Footprint 8 B x (n+1)^2.",
                List.of(
                        ParamSpec.integer("n", 512, B, 1 << 15, "sequence length, rounded up to a multiple of 16; footprint 8 B x (n+1)^2"),
                        ParamSpec.integer("compute", 8, 1, 10_000, "cycles per intra-tile diagonal step (max of three scores)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = (p.getInt("n") + B - 1) / B * B, compute = p.getInt("compute");
        int cols = n + 1, blocks = n / B;
        long bytes = 4L * cols * cols;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("reference", bytes, AllocationHint.NONE, true),
                new AllocationSpec("matrix", bytes));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int d = 0; d < 2 * blocks - 1; d++) {
                int lo = Math.max(0, d - blocks + 1), hi = Math.min(d, blocks - 1), diag = d;
                ks.add(new SimpleKernel(d < blocks ? "needle_cuda_shared_1" : "needle_cuda_shared_2", hi - lo + 1, B,
                        (B + 1) * (B + 1) * 4 + B * B * 4,
                        (cta, warp) -> new Program(b[0], b[1], cols, lo + cta, diag - (lo + cta), compute)));
            }
            return ks;
        });
    }

    static final class Program implements WarpProgram {
        private static final int ALL = (1 << B) - 1;
        private final long ref, matrix;
        private final long cols, nw; // element index of the block's north-west corner
        private final int compute;
        private int pc;

        Program(long ref, long matrix, int cols, int bx, int by, int compute) {
            this.ref = ref;
            this.matrix = matrix;
            this.cols = cols;
            this.nw = (long) cols * B * by + (long) B * bx;
            this.compute = compute;
        }

        // 0 corner, 1..16 ref rows, 17 barrier, 18 west, 19 barrier, 20 north, 21 barrier,
        // 22..83 (compute, barrier) x 31, 84..99 stores
        @Override
        public boolean next(WarpInstruction out) {
            int at = pc++;
            if (at == 0) {
                out.memory(Kind.LOAD, 4, 1, false);
                out.addresses[0] = matrix + 4 * nw;
            } else if (at <= B) {
                rows(out, Kind.LOAD, ref, at - 1, false);
            } else if (at == 17 || at == 19 || at == 21) {
                out.barrier();
            } else if (at == 18) { // temp[tx+1][0] = matrix[index_w + cols*(tx+1)]: one element per row
                out.memory(Kind.LOAD, 4, ALL, false);
                for (int l = 0; l < B; l++) out.addresses[l] = matrix + 4 * (nw + cols * (l + 1));
            } else if (at == 20) { // temp[0][tx+1] = matrix[index_n]
                out.memory(Kind.LOAD, 4, ALL, false);
                for (int l = 0; l < B; l++) out.addresses[l] = matrix + 4 * (nw + 1 + l);
            } else if (at < 22 + 2 * (2 * B - 1)) {
                int s = at - 22;
                if (s % 2 == 0) out.compute(compute, s == 0);
                else out.barrier();
            } else if (at < 22 + 2 * (2 * B - 1) + B) {
                rows(out, Kind.STORE, matrix, at - 22 - 2 * (2 * B - 1), true);
            } else {
                return false;
            }
            return true;
        }

        /** Row ty of the block interior: matrix[index + cols*ty], 16 contiguous ints. */
        private void rows(WarpInstruction out, Kind kind, long base, int ty, boolean wait) {
            out.memory(kind, 4, ALL, wait);
            long index = nw + cols + 1 + cols * ty;
            for (int l = 0; l < B; l++) out.addresses[l] = base + 4 * (index + l);
        }
    }
}
