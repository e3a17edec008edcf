package org.hmsim.platform.workloads.builtin.uvm;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.Lanes;

/**
 * One warp of a gather with a large stride: thread t loads element {@code offset + stride x t} of every read
 * array, then stores one float at {@code result[t]}. The CUDA SDK scan's second kernel
 * ({@code scanExclusiveShared2}) reads each block's last input and output word this way: one word per
 * {@code stride} elements, so a warp load touches 32 lines and the kernel touches every page of both arrays
 * while moving almost no data.
 */
final class StridedGather implements WarpProgram {
    private final long[] reads;
    private final long result, stride, offset, firstThread, last;
    private final int existing, compute;
    private int phase;

    StridedGather(long[] reads, long result, long stride, long offset, long threadsTotal, int threads, int cta, int warp, int compute) {
        this.reads = reads;
        this.result = result;
        this.stride = stride;
        this.offset = offset;
        this.firstThread = (long) cta * threads + (long) warp * Lanes.W;
        this.last = threadsTotal - 1;
        this.existing = Lanes.existing(warp, threads) & Lanes.first(threadsTotal - firstThread);
        this.compute = compute;
        if (existing == 0) phase = reads.length + 2;
    }

    @Override
    public boolean next(WarpInstruction out) {
        if (phase < reads.length) {
            long base = reads[phase++];
            out.memory(Kind.LOAD, 4, existing, false);
            for (int l = 0; l < Lanes.W; l++) out.addresses[l] = base + 4 * (offset + stride * Math.min(last, firstThread + l));
            return true;
        }
        if (phase == reads.length) {
            phase++;
            out.compute(Math.max(1, compute), true);
            return true;
        }
        if (phase == reads.length + 1) {
            phase++;
            out.memory(Kind.STORE, 4, existing, false);
            for (int l = 0; l < Lanes.W; l++) out.addresses[l] = result + 4 * Math.min(last, firstThread + l);
            return true;
        }
        return false;
    }
}
