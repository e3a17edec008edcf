package org.hmsim.platform.workloads.builtin;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.gen.CsrMatrix;

/**
 * CSR SpMV, vector kernel (one warp per row, as in Bell and Garland's csr_vector): lanes 0 and 1 read
 * rowPtr[row] and rowPtr[row+1]; then per chunk of 32 entries the warp reads colIdx and values
 * coalesced (after the row pointers arrive) and gathers x[col] (after colIdx arrives), accumulates;
 * finally a warp-shuffle reduction and lane 0 stores y[row].
 */
final class CsrVectorProgram implements WarpProgram {
    private final CsrMatrix m;
    private final long rowPtr, colIdx, vals, x, y;
    private final int valBytes;
    private final int row;
    private int pc, chunk, phase;

    /** @param row the row of this warp, or -1 if the warp has none (it exits at once) */
    CsrVectorProgram(CsrMatrix m, long rowPtr, long colIdx, long vals, long x, long y, int valBytes, int row) {
        this.m = m;
        this.rowPtr = rowPtr;
        this.colIdx = colIdx;
        this.vals = vals;
        this.x = x;
        this.y = y;
        this.valBytes = valBytes;
        this.row = row;
    }

    @Override
    public boolean next(WarpInstruction out) {
        if (row < 0) return false;
        if (pc == 0) {
            pc = 1;
            out.memory(Kind.LOAD, 4, 0b11, false);
            out.addresses[0] = rowPtr + 4L * row;
            out.addresses[1] = rowPtr + 4L * (row + 1);
            return true;
        }
        int len = m.rowLength(row);
        int chunks = (len + Lanes.W - 1) / Lanes.W;
        if (chunk < chunks) {
            long j0 = m.rowStart(row) + (long) chunk * Lanes.W;
            int mask = Lanes.first(len - (long) chunk * Lanes.W);
            switch (phase) {
                case 0 -> { // column indices: their address depends on rowPtr
                    out.memory(Kind.LOAD, 4, mask, true);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = colIdx + 4 * (j0 + l);
                }
                case 1 -> {
                    out.memory(Kind.LOAD, valBytes, mask, false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = vals + valBytes * (j0 + l);
                }
                case 2 -> { // the gather: its address is the column just loaded
                    out.memory(Kind.LOAD, valBytes, mask, true);
                    int k0 = chunk * Lanes.W;
                    for (int l = 0; l < Lanes.W; l++)
                        out.addresses[l] = k0 + l < len ? x + valBytes * m.column(row, k0 + l) : x;
                }
                default -> out.compute(2, false);
            }
            if (++phase == 4) {
                phase = 0;
                chunk++;
            }
            return true;
        }
        int at = pc++;
        if (at == 1) {
            out.compute(10, true); // 5 shuffle steps of the reduction, needs every product
            return true;
        }
        if (at == 2) {
            out.memory(Kind.STORE, valBytes, 1, true);
            out.addresses[0] = y + (long) valBytes * row;
            return true;
        }
        return false;
    }
}
