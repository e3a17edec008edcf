package org.hmsim.platform.workloads.builtin.uvm;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.workloads.Lanes;

/**
 * One warp of a coalesced streaming pass (seed 002 §4's regular applications): CTA c owns the tile of
 * {@code threads x perThread} consecutive elements starting at {@code from + c x tile} (clipped to
 * {@code to}), its warps striding through the tile; per element each lane loads 4 B of every read array at element
 * offset {@code shift} (stencil neighbours: the row or plane below lies in a later CTA's tile or a later
 * kernel's range, so a shifted load is clipped to the arrays' elements [0, end), not to the tile), computes,
 * and stores 4 B of every written array. Every warp instruction touches one 128 B line, and the pass walks
 * its arrays page by page, so the footprint grows linearly within the pass (seed 002 Fig 6).
 */
final class StreamPass implements WarpProgram {
    private final long[] reads, writes;
    private final long[] shifts;
    private final long to, end, gridThreads, first;
    private final int existing, compute;
    private long e;
    private int phase;

    StreamPass(long[] reads, long[] shifts, long[] writes, long from, long to, long end, int perThread, int threads, int cta, int warp, int compute) {
        this.reads = reads;
        this.shifts = shifts;
        this.writes = writes;
        long tile = (long) threads * perThread;
        this.to = Math.min(to, from + (cta + 1L) * tile);
        this.end = end;
        this.gridThreads = threads;
        this.first = from + cta * tile + (long) warp * Lanes.W;
        this.existing = Lanes.existing(warp, threads);
        this.compute = compute;
        this.e = first;
    }

    @Override
    public boolean next(WarpInstruction out) {
        while (e < to) {
            int nReads = reads.length * shifts.length;
            if (phase < nReads) {
                long base = reads[phase / shifts.length];
                long shift = shifts[phase % shifts.length];
                emit(out, Kind.LOAD, base, shift, false);
                phase++;
                return true;
            }
            if (phase == nReads) {
                out.compute(Math.max(1, compute), true);
                phase++;
                return true;
            }
            int w = phase - nReads - 1;
            if (w < writes.length) {
                emit(out, Kind.STORE, writes[w], 0, false);
                phase++;
                return true;
            }
            phase = 0;
            e += gridThreads;
        }
        return false;
    }

    private void emit(WarpInstruction out, Kind kind, long base, long shift, boolean wait) {
        out.memory(kind, 4, existing & Lanes.first(to - e), wait);
        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = base + 4 * Math.max(0, Math.min(end - 1, e + l + shift));
    }
}
