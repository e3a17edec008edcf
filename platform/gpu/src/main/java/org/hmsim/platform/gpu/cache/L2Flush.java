package org.hmsim.platform.gpu.cache;

/**
 * Whole-slice and frame-range maintenance of an L2 slice, off the hot path: the write-back-and-invalidate a live
 * coherence swap needs, dropping the lines of a frame that left the GPU (seed 002 unified memory, page migration)
 * with their L1 copies, and the check of which lines of a range are still held.
 */
final class L2Flush {
    private final L2Slice slice;
    private final SectorTags t;
    private final long[] sharers;
    private final L2Transactions tx;
    private L2WriteBack wb;
    private L2MissPath mp;

    L2Flush(L2Slice slice) {
        this.slice = slice;
        this.t = slice.t;
        this.sharers = slice.sharers;
        this.tx = slice.tx;
    }

    void wire(L2WriteBack wb, L2MissPath mp) {
        this.wb = wb;
        this.mp = mp;
    }

    /** {@link L2Slice#writeBackAndInvalidateAll()}, once the slice has checked it is drained. */
    long[] writeBackAndInvalidateAll() {
        long written = 0, invalidated = 0;
        for (int i = 0; i < t.tag.length; i++) {
            if (t.valid[i] == 0) continue;
            if (t.dirty[i] != 0) {
                wb.postWrite(t.tag[i], t.dirty[i]);
                written++;
            }
            t.invalidate(i, slice.repl);
            sharers[i] = 0;
            invalidated++;
        }
        if (mp.vc != null) mp.vc = new VictimCache(mp.vc.capacity); // clean lines: nothing to write
        return new long[] {written, invalidated};
    }

    /** {@link L2Slice#dropRange}. */
    long[] dropRange(long base, long bytes) {
        long dropped = 0, dirty = 0;
        for (long line = t.lineOf(base); line < base + bytes; line += t.lineBytes) {
            if (mp.vc != null) mp.vc.drop(line);
            int m = tx.byLine.get(line);
            if (m >= 0) tx.drop[m] = true;
            int set = t.setOf(line);
            int w = t.find(set, line);
            if (w < 0) continue;
            int i = set * t.ways + w;
            if (t.locked[i]) continue;
            if (t.dirty[i] != 0) dirty++;
            dropWay(i, line);
            dropped++;
        }
        return new long[] {dropped, dirty};
    }

    /**
     * Invalidates way {@code i} (holding {@code line}) here and in the L1s that share it. Their dirty data (a write-back
     * L1's) is dropped with the line: this serves frames that leave the GPU, and the machine refuses write-back L1s
     * where frames do (unified memory, a CPU).
     */
    void dropWay(int i, long line) {
        if (sharers[i] != 0) slice.upper.invalidate(line, sharers[i]);
        t.invalidate(i, slice.repl);
        sharers[i] = 0;
    }

    /** {@link L2Slice#linesHeld}. */
    int linesHeld(long base, long bytes) {
        int n = 0;
        for (long line = t.lineOf(base); line < base + bytes; line += t.lineBytes) {
            int m = tx.byLine.get(line);
            if (t.find(t.setOf(line), line) >= 0 && (m < 0 || !tx.drop[m])) n++;
            else if (m >= 0 && !tx.drop[m] && (tx.way[m] >= 0 || tx.frc[m] >= 0)) n++;
            else if (mp.vc != null && mp.vc.contains(line)) n++;
        }
        return n;
    }
}
