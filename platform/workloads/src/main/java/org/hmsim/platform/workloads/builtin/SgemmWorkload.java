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
 * Tiled dense matrix multiply C = alpha·A·B + beta·C (n x n floats). Each 16x16 CTA owns a C tile;
 * per k-step every warp loads its two rows of the A tile and of the B tile (coalesced 64 B segments)
 * into shared memory, waits at a barrier, spends many cycles of FMAs on the tile, and waits again.
 * Every element of A and B is read n/16 times from global memory (high reuse in L1/L2), and each warp
 * has only two loads in flight per step: low memory-level parallelism, so it is the latency-sensitive
 * workload of seed 000 §5 C1/C4.
 */
public final class SgemmWorkload extends BuiltinProvider {
    static final int TILE = 16;

    public SgemmWorkload() {
        super("sgemm", "model of Parboil/CUDA-SDK sgemm: shared-memory tiled GEMM (16x16 tiles, one C element per thread); "
                        + "per k-step coalesced A and B tile loads, barrier, compute on the tile, barrier; C read and written "
                        + "once. High reuse, low MLP, latency-sensitive. Register tiling of the Parboil kernel is not modelled. "
                        + "Footprint 12 B x n^2.",
                List.of(
                        ParamSpec.integer("n", 256, TILE, 1 << 14, "matrix dimension, rounded up to a multiple of 16; footprint 12 B x n^2 (A, B, C)"),
                        ParamSpec.integer("compute", 32, 1, 100_000, "cycles of shared-memory FMAs per warp per k-step (16 FMAs + 16 shared loads)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = (p.getInt("n") + TILE - 1) / TILE * TILE;
        int compute = p.getInt("compute"), iterations = p.getInt("iterations");
        long bytes = 4L * n * n;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("A", bytes, AllocationHint.NONE, true),
                new AllocationSpec("B", bytes, AllocationHint.NONE, true),
                new AllocationSpec("C", bytes));
        int tiles = n / TILE;
        return new SimpleWorkload(name(), allocs, base -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("sgemm_tiled", tiles * tiles, TILE * TILE, 2 * TILE * TILE * 4,
                        (cta, warp) -> new Program(base[0], base[1], base[2], n, tiles, cta, warp, compute)));
            return ks;
        });
    }

    static final class Program implements WarpProgram {
        private static final int STEP = 5; // load A, load B, barrier, compute, barrier
        private final long a, b, c;
        private final int n, compute, kSteps;
        private final int row0, col0; // global row and column of lane 0
        private int pc;

        Program(long a, long b, long c, int n, int tiles, int cta, int warp, int compute) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.n = n;
            this.compute = compute;
            this.kSteps = tiles;
            this.row0 = (cta / tiles) * TILE + 2 * warp;
            this.col0 = (cta % tiles) * TILE;
        }

        @Override
        public boolean next(WarpInstruction out) {
            int at = pc++;
            int k = at / STEP;
            if (k < kSteps) {
                switch (at % STEP) {
                    case 0 -> tile(out, a, row0, k * TILE); // A[row][k*16 + tx]
                    case 1 -> tile(out, b, k * TILE + (row0 % TILE), col0); // B[k*16 + ty][col]
                    case 3 -> out.compute(compute, true);
                    default -> out.barrier();
                }
                return true;
            }
            switch (at - kSteps * STEP) {
                case 0 -> { fill(out, Kind.LOAD, c, row0, col0, false); return true; }
                case 1 -> { fill(out, Kind.STORE, c, row0, col0, true); return true; }
                default -> { return false; }
            }
        }

        private void tile(WarpInstruction out, long base, int r0, int c0) { fill(out, Kind.LOAD, base, r0, c0, false); }

        /** Lanes 0-15 touch row r0, lanes 16-31 row r0+1, columns c0..c0+15. */
        private void fill(WarpInstruction out, Kind kind, long base, int r0, int c0, boolean wait) {
            out.memory(kind, 4, -1, wait);
            for (int l = 0; l < 32; l++) out.addresses[l] = base + 4 * ((long) (r0 + l / TILE) * n + c0 + l % TILE);
        }
    }
}
