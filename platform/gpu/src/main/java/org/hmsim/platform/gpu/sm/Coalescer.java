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
        ascending = true;
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
    /**
     * The lines so far are strictly increasing (and not in the hash): a line above the last one is then a
     * new one. Most warps touch their lines in address order (streams, strided and uncoalesced scans), so
     * they never hash; the first line out of order puts the earlier ones into the hash, same result.
     */
    private boolean ascending;

    private void add(long line, int mask) {
        int n = count;
        if (n > 0) {
            long last = lines[n - 1];
            // The previous line is the common case (consecutive threads): check it first.
            if (last == line) {
                sectors[n - 1] |= mask;
                return;
            }
            if (ascending) {
                if (line > last) {
                    append(line, mask);
                    return;
                }
                ascending = false;
                hashAll();
            }
        } else {
            append(line, mask);
            return;
        }
        int h = hash(line);
        while (hGen[h] == gen) {
            if (hLine[h] == line) {
                sectors[hIdx[h]] |= mask;
                return;
            }
            h = (h + 1) & (HASH - 1);
        }
        put(h, line, count);
        append(line, mask);
    }

    private void append(long line, int mask) {
        lines[count] = line;
        sectors[count] = mask;
        count++;
    }

    /** Starts a new hash generation holding the (distinct) lines so far. */
    private void hashAll() {
        if (++gen == 0) {
            java.util.Arrays.fill(hGen, 0);
            gen = 1;
        }
        for (int i = 0; i < count; i++) {
            int h = hash(lines[i]);
            while (hGen[h] == gen) h = (h + 1) & (HASH - 1);
            put(h, lines[i], i);
        }
    }

    private static int hash(long line) { return (int) ((line * 0x9E3779B97F4A7C15L) >>> 56); }

    // Pages of the last instruction (seed 002 Fig 17): a second generation-stamped set, used only for lines out of order.
    private final int[] pGen = new int[HASH];
    private final long[] pPage = new long[HASH];
    private int pageGen;

    /**
     * Distinct pages of {@code 1 << pageShift} bytes among the last instruction's lines: 1 for a coalesced access,
     * up to one per lane for a row-per-thread walk (seed 002 Fig 17, pages per warp instruction). Lines in address
     * order are counted by page changes; others through a set, so a gather costs O(lines) too.
     */
    public int pages(int pageShift) {
        int n = count;
        if (n <= 1) return n;
        if (ascending) {
            int p = 1;
            long last = lines[0] >>> pageShift;
            for (int i = 1; i < n; i++) {
                long q = lines[i] >>> pageShift;
                if (q != last) {
                    p++;
                    last = q;
                }
            }
            return p;
        }
        if (++pageGen == 0) {
            java.util.Arrays.fill(pGen, 0);
            pageGen = 1;
        }
        int p = 0;
        for (int i = 0; i < n; i++) {
            long q = lines[i] >>> pageShift;
            int h = hash(q);
            while (pGen[h] == pageGen && pPage[h] != q) h = (h + 1) & (HASH - 1);
            if (pGen[h] != pageGen) {
                pGen[h] = pageGen;
                pPage[h] = q;
                p++;
            }
        }
        return p;
    }

    private void put(int h, long line, int index) {
        hGen[h] = gen;
        hLine[h] = line;
        hIdx[h] = index;
    }
}
