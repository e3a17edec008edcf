package org.hmsim.platform.gpu.sm;

import org.hmsim.api.workload.WarpInstruction;

/**
 * The memory coalescer of an SM: turns the per-thread addresses of one warp instruction (active threads
 * only, {@code bytesPerThread} each) into one request per distinct 128 B line with a mask of the 32 B
 * sectors touched, in order of first appearance (seed 000 §2.11: 32 B is the SM's smallest request after
 * lane coalescing). A thread access that crosses a line boundary touches both lines. Works on virtual
 * addresses: a line never straddles a page.
 */
public final class Coalescer {
    private static final int SECTOR_SHIFT = 5;
    private final int lineBytes;
    private final long lineMask;
    /** Virtual line addresses of the last coalesced instruction. */
    public final long[] lines = new long[2 * WarpInstruction.THREADS];
    /** Sector masks, parallel to {@link #lines}. */
    public final int[] sectors = new int[2 * WarpInstruction.THREADS];
    public int count;

    public Coalescer(int lineBytes) {
        if (Integer.bitCount(lineBytes) != 1 || lineBytes < 32) throw new IllegalArgumentException("line size must be a power of two >= 32");
        this.lineBytes = lineBytes;
        this.lineMask = ~((long) lineBytes - 1);
    }

    /** Coalesces {@code in}; returns the number of line requests. */
    public int coalesce(WarpInstruction in) {
        count = 0;
        int active = in.activeMask;
        int bytes = Math.max(1, in.bytesPerThread);
        while (active != 0) {
            int t = Integer.numberOfTrailingZeros(active);
            active &= active - 1;
            long a = in.addresses[t];
            long end = a + bytes - 1;
            long line = a & lineMask;
            long endLine = end & lineMask;
            if (line == endLine) add(line, sectorBits(a - line, end - line));
            else {
                add(line, sectorBits(a - line, lineBytes - 1));
                add(endLine, sectorBits(0, end - endLine));
            }
        }
        return count;
    }

    private static int sectorBits(long firstByte, long lastByte) {
        int lo = (int) (firstByte >>> SECTOR_SHIFT), hi = (int) (lastByte >>> SECTOR_SHIFT);
        return (int) ((-1L << lo) & ((1L << (hi + 1)) - 1)) ;
    }

    // A generation-stamped hash from line to request index: O(1) per thread, nothing to clear per warp.
    private static final int HASH = 256;
    private final int[] hGen = new int[HASH];
    private final long[] hLine = new long[HASH];
    private final int[] hIdx = new int[HASH];
    private int gen;

    private void add(long line, int mask) {
        // The previous line is the common case (consecutive threads): check it first.
        if (count > 0 && lines[count - 1] == line) {
            sectors[count - 1] |= mask;
            return;
        }
        if (count == 0 && ++gen == 0) {
            java.util.Arrays.fill(hGen, 0);
            gen = 1;
        }
        long x = line * 0x9E3779B97F4A7C15L;
        int h = (int) (x >>> 56);
        while (hGen[h] == gen) {
            if (hLine[h] == line) {
                sectors[hIdx[h]] |= mask;
                return;
            }
            h = (h + 1) & (HASH - 1);
        }
        hGen[h] = gen;
        hLine[h] = line;
        hIdx[h] = count;
        lines[count] = line;
        sectors[count] = mask;
        count++;
    }
}
