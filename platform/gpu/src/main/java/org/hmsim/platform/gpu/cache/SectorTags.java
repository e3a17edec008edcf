package org.hmsim.platform.gpu.cache;

import java.util.Arrays;
import org.hmsim.platform.gpu.CacheConfig;

/**
 * Tag store of a sectored set-associative cache: per (set, way) the line address, the valid and dirty
 * 32 B-sector masks and a lock bit (a way waiting for its fill, seed 003's "transient" state). Flat
 * arrays indexed {@code set * ways + way}.
 */
public final class SectorTags {
    public static final int SECTOR_BYTES = 32;
    public final int sets, ways, lineBytes, sectors;
    public final int fullMask;
    public final long[] tag;
    public final int[] valid;
    public final int[] dirty;
    public final boolean[] locked;
    private final int lineShift;
    /** sets - 1 when sets is a power of two (the set index is then a mask), else -1. */
    private final long setMask;

    public SectorTags(String name, CacheConfig cfg) {
        this.ways = cfg.ways();
        this.lineBytes = cfg.lineBytes();
        this.sets = cfg.sets();
        if (sets <= 0 || ways <= 0 || ways > 64) throw new IllegalArgumentException(name + ": need sets > 0 and 1..64 ways (size " + cfg.sizeBytes() + ", ways " + ways + ")");
        if (Integer.bitCount(lineBytes) != 1 || lineBytes < SECTOR_BYTES || lineBytes > 32 * SECTOR_BYTES)
            throw new IllegalArgumentException(name + ": line size must be a power of two between 32 and 1024 B");
        this.sectors = lineBytes / SECTOR_BYTES;
        this.fullMask = sectors == 32 ? -1 : (1 << sectors) - 1;
        int n = sets * ways;
        tag = new long[n];
        Arrays.fill(tag, -1L);
        valid = new int[n];
        dirty = new int[n];
        locked = new boolean[n];
        lineShift = Integer.numberOfTrailingZeros(lineBytes);
        setMask = Integer.bitCount(sets) == 1 ? sets - 1 : -1;
    }

    public long lineOf(long paddr) { return paddr & ~((long) lineBytes - 1); }

    /** Set index: the line number folded so that the pool bits above 40 do not alias sets. */
    public int setOf(long line) {
        // Shift and mask instead of two 64-bit divisions (this runs on every cache access); the same
        // numbers: lines are non-negative and lineBytes a power of two.
        long x = line >>> lineShift;
        long h = x ^ (x >>> 27);
        return setMask >= 0 ? (int) (h & setMask) : (int) Long.remainderUnsigned(h, sets);
    }

    /** The way (0..ways-1) holding {@code line} in {@code set} (valid or being filled), or -1. */
    public int find(int set, long line) {
        int b = set * ways;
        for (int w = 0; w < ways; w++) {
            int i = b + w;
            if (tag[i] == line && (valid[i] != 0 || locked[i])) return w;
        }
        return -1;
    }

    /** An invalid, unlocked way of {@code set}, or -1. */
    public int freeWay(int set) {
        int b = set * ways;
        for (int w = 0; w < ways; w++) if (valid[b + w] == 0 && !locked[b + w]) return w;
        return -1;
    }

    /** Bit w set = way w is valid and not locked (a replacement candidate). */
    public long candidates(int set) {
        int b = set * ways;
        long m = 0;
        for (int w = 0; w < ways; w++) if (valid[b + w] != 0 && !locked[b + w]) m |= 1L << w;
        return m;
    }

    public void invalidate(int i) {
        valid[i] = 0;
        dirty[i] = 0;
        tag[i] = -1;
    }
}
