package org.hmsim.platform.workloads.builtin.uvm;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.Lanes;

/**
 * One warp of the CUDA SDK's {@code convolutionColumnsKernel} over a {@code width x height} float image
 * (seed 002's CONS): blocks of {@value #BX} x {@value #BY} threads, each block the {@value #BX} columns
 * {@code 16 bx ..} of a band of {@code RESULT_STEPS x BY} = 64 rows, plus one {@value #BY}-row halo step above
 * and below; blocks run column-tile by column-tile along a band, then the next band. A thread loads its column
 * at {@value #BY}-row steps (10 loads, each warp load two rows' 64 B segments), computes from shared memory,
 * and stores its 8 results. So the blocks of one band touch the same ~80 rows at once: a band of pages
 * faults in together, then the next.
 */
final class ColumnTilePass implements WarpProgram {
    static final int BX = 16, BY = 8, RESULT_STEPS = 8, HALO_STEPS = 1;
    private static final int LOADS = RESULT_STEPS + 2 * HALO_STEPS;

    private final long src, dst, width, height;
    private final long column, firstRow;
    private final int compute;
    private int phase;

    /** Blocks per band: {@code ceil(width / 16)}; the grid has {@code ceil(height / 64)} bands of them. */
    static int blocks(long width, long height) {
        long perBand = (width + BX - 1) / BX, bands = (height + RESULT_STEPS * BY - 1) / (RESULT_STEPS * BY);
        return (int) Math.max(1, perBand * bands);
    }

    ColumnTilePass(long src, long dst, long width, long height, int cta, int warp, int compute) {
        this.src = src;
        this.dst = dst;
        this.width = width;
        this.height = height;
        long perBand = (width + BX - 1) / BX;
        this.column = (cta % perBand) * BX;
        // warp w holds threadIdx.y = 2w and 2w + 1 (16 lanes each)
        this.firstRow = ((cta / perBand) * RESULT_STEPS - HALO_STEPS) * BY + 2L * warp;
        this.compute = compute;
    }

    @Override
    public boolean next(WarpInstruction out) {
        while (phase < LOADS) // a halo step outside the image has no lanes: nothing to issue
            if (emit(out, Kind.LOAD, src, phase++)) return true;
        if (phase == LOADS) {
            phase++;
            out.compute(Math.max(1, compute), true); // the barrier and the 17-tap convolution from shared memory
            return true;
        }
        while (phase - LOADS - 1 < RESULT_STEPS)
            if (emit(out, Kind.STORE, dst, phase++ - LOADS - 1 + HALO_STEPS)) return true;
        return false;
    }

    /**
     * Lanes 0-15 on row {@code firstRow + BY x step}, lanes 16-31 on the next row; rows outside the image idle.
     * False (nothing emitted) when no lane is inside.
     */
    private boolean emit(WarpInstruction out, Kind kind, long base, int step) {
        int mask = 0;
        for (int l = 0; l < Lanes.W; l++) {
            long r = firstRow + (long) BY * step + l / BX, c = column + l % BX;
            boolean in = r >= 0 && r < height && c < width;
            if (in) mask |= 1 << l;
            out.addresses[l] = base + 4 * (in ? r * width + c : 0);
        }
        if (mask == 0) return false;
        out.memory(kind, 4, mask, false);
        return true;
    }
}
