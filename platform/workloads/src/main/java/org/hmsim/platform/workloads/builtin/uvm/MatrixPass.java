package org.hmsim.platform.workloads.builtin.uvm;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.Lanes;

/**
 * One warp of a Polybench matrix-vector kernel over row-major {@code rows x cols} float matrices (seed 002
 * §4's irregular applications ATAX, BICG, GESUMMV, MVT).
 *
 * <p>Row-per-thread ({@code byRow}): thread i walks row i, {@code A[i][j]} for j = 0..cols-1; the 32 lanes of
 * a warp touch 32 different rows, so each load is 32 line requests and spans 32 x row bytes / page bytes
 * pages — the uncoalesced, multi-page pattern of Fig 17. Column-per-thread: thread j walks column j, so a
 * warp's load is one coalesced line. Per element: one load per matrix; every {@code unroll} elements an
 * accumulate that waits for the loads; at the end one store of the result vector. The small x vector is
 * not modelled (it stays in the L1).
 */
final class MatrixPass implements WarpProgram {
    private final long[] matrices;
    private final long result;
    private final boolean byRow;
    private final long rows, cols;
    private final long firstThread;
    private final int existing, unroll, compute;
    private long k;
    private int slot, phase;
    private boolean stored;

    MatrixPass(long[] matrices, long result, boolean byRow, long rows, long cols, int threads, int cta, int warp, int unroll, int compute) {
        this.matrices = matrices;
        this.result = result;
        this.byRow = byRow;
        this.rows = rows;
        this.cols = cols;
        this.firstThread = (long) cta * threads + (long) warp * Lanes.W;
        long span = byRow ? rows : cols;
        this.existing = Lanes.existing(warp, threads) & Lanes.first(span - firstThread);
        this.unroll = unroll;
        this.compute = compute;
        if (firstThread >= span) stored = true;
    }

    @Override
    public boolean next(WarpInstruction out) {
        long len = byRow ? cols : rows;
        if (stored) return false;
        if (k < len) {
            if (phase < matrices.length) {
                long base = matrices[phase++];
                out.memory(Kind.LOAD, 4, existing, false);
                for (int l = 0; l < Lanes.W; l++) {
                    long t = firstThread + l;
                    long i = byRow ? t : k, j = byRow ? k : t;
                    out.addresses[l] = base + 4 * (Math.min(i, rows - 1) * cols + Math.min(j, cols - 1));
                }
                return true;
            }
            phase = 0;
            k++;
            if (++slot == unroll || k == len) {
                slot = 0;
                out.compute(Math.max(1, compute), true);
                return true;
            }
            return next(out);
        }
        out.memory(Kind.STORE, 4, existing, false);
        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = result + 4 * (firstThread + l);
        stored = true;
        return true;
    }
}
