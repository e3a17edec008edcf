package org.hmsim.platform.gpu.cache;

import java.util.Arrays;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.util.LongIntMap;
import org.hmsim.platform.gpu.xbar.Crossbar;

/**
 * Tag store of a sectored set-associative cache: per (set, way) the line address, the valid and dirty
 * 32 B-sector masks and a lock bit (a way waiting for its fill, seed 003's "transient" state). Flat
 * arrays indexed {@code set * ways + way}.
 *
 * <p><b>Fully associative layout</b> (only when the owner allows it, and only for one set of more than 64
 * ways: seed 003 Ch. 6.4.3 compares the FRC with a fully associative 2 x 256 KB L2, 4096 ways per bank).
 * A linear search and a 64-bit candidate mask cannot serve 4096 ways, so this layout finds a line through a
 * line-to-way map, keeps its own LRU order (the thesis's FA L2 is the classic LRU upper bound for set
 * mappings) and a stack of free ways. The owner must change tags only through {@link #setTag} and
 * {@link #invalidate} and use {@link #lruState()} as the replacement state. The set-associative path pays one
 * predictable branch on a final field.
 */
public final class SectorTags {
    public static final int SECTOR_BYTES = 32;
    public final int sets, ways, lineBytes, sectors;
    public final int fullMask;
    public final long[] tag;
    public final int[] valid;
    public final int[] dirty;
    public final boolean[] locked;
    /** True for the fully associative layout (one set of more than 64 ways). */
    public final boolean fullyAssociative;
    private final int lineShift;
    /** Hashed slices this cache is one of: a power of two's bits are dropped ({@code sliceBits}), other counts divided out. */
    private final int sliceBits, otherSlices;
    /** The slice count a plain interleave divides the line number by for the set index (1: none); a shift for a power of two. */
    private final int lineDivisor, lineDivShift;
    /** sets - 1 when sets is a power of two (the set index is then a mask), else -1. */
    private final long setMask;
    // fully associative layout only: line -> way, LRU list (head = most recent), free-way stack
    private final LongIntMap where;
    private final int[] prev, next, free;
    private int head = -1, tail = -1, freeTop;

    public SectorTags(String name, CacheConfig cfg) { this(name, cfg, false, 0); }

    /**
     * {@code allowFullyAssociative}: one set of more than 64 ways takes the fully associative layout.
     * {@code hashedSlices}: the number of slices a hash of the address chose this cache among, a choice left out
     * of the set index ({@link Crossbar#withinHashedSlice}; 0 or 1: none).
     */
    public SectorTags(String name, CacheConfig cfg, boolean allowFullyAssociative, int hashedSlices) {
        this(name, cfg, allowFullyAssociative, hashedSlices, 0);
    }

    /**
     * As above; {@code plainSlices}: the number of slices a plain interleave spreads the chunks over
     * ({@link Crossbar#plainSlices}), by which the line number is divided before it indexes the sets (0 or 1: not).
     */
    public SectorTags(String name, CacheConfig cfg, boolean allowFullyAssociative, int hashedSlices, int plainSlices) {
        this.lineDivisor = Math.max(1, plainSlices);
        this.lineDivShift = Integer.bitCount(lineDivisor) == 1 ? Integer.numberOfTrailingZeros(lineDivisor) : -1; // on every access
        boolean pow2 = Integer.bitCount(hashedSlices) == 1;
        this.sliceBits = hashedSlices > 1 && pow2 ? Integer.numberOfTrailingZeros(hashedSlices) : 0;
        this.otherSlices = hashedSlices > 1 && !pow2 ? hashedSlices : 0;
        this.ways = cfg.ways();
        this.lineBytes = cfg.lineBytes();
        this.sets = cfg.sets();
        this.fullyAssociative = allowFullyAssociative && sets == 1 && ways > 64;
        if (sets <= 0 || ways <= 0 || (ways > 64 && !fullyAssociative))
            throw new IllegalArgumentException(name + ": need sets > 0 and 1..64 ways" + (allowFullyAssociative ? ", or one set (fully associative)" : "")
                    + " (size " + cfg.sizeBytes() + ", ways " + ways + ")");
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
        if (fullyAssociative) {
            where = new LongIntMap(n);
            prev = new int[n];
            next = new int[n];
            free = new int[n];
            Arrays.fill(prev, -2); // -2: not in the LRU list
            for (int w = n - 1; w >= 0; w--) free[freeTop++] = w;
        } else {
            where = null;
            prev = next = free = null;
        }
    }

    public long lineOf(long paddr) { return paddr & ~((long) lineBytes - 1); }

    /** The line number a set index is taken from: with a plain slice interleave, divided by the slice count (Multi2Sim's). */
    public long lineNumberForIndex(long line) {
        long x = line >>> lineShift;
        return lineDivShift >= 0 ? x >>> lineDivShift : Long.divideUnsigned(x, lineDivisor);
    }

    /** Set index: the line number folded so that the pool bits above 40 do not alias sets. */
    public int setOf(long line) {
        if (sliceBits != 0) line = Crossbar.withoutHashedSliceBits(line, sliceBits);
        else if (otherSlices != 0) line = Crossbar.withinHashedSlice(line, otherSlices);
        // Shift and mask instead of two 64-bit divisions (this runs on every cache access); the same
        // numbers: lines are non-negative and lineBytes a power of two.
        long x = lineNumberForIndex(line);
        long h = x ^ (x >>> 27);
        return setMask >= 0 ? (int) (h & setMask) : (int) Long.remainderUnsigned(h, sets);
    }

    /** The way (0..ways-1) holding {@code line} in {@code set} (valid or being filled), or -1. */
    public int find(int set, long line) {
        if (where != null) {
            int i = where.get(line);
            return i >= 0 && (valid[i] != 0 || locked[i]) ? i : -1;
        }
        int b = set * ways;
        for (int w = 0; w < ways; w++) {
            int i = b + w;
            if (tag[i] == line && (valid[i] != 0 || locked[i])) return w;
        }
        return -1;
    }

    /** An invalid, unlocked way of {@code set}, or -1. */
    public int freeWay(int set) {
        if (where != null) {
            // the stack may hold ways claimed since they were pushed (always on top: a claim takes the top)
            while (freeTop > 0) {
                int w = free[freeTop - 1];
                if (valid[w] == 0 && !locked[w] && tag[w] == -1) return w;
                freeTop--;
            }
            return -1;
        }
        int b = set * ways;
        for (int w = 0; w < ways; w++) if (valid[b + w] == 0 && !locked[b + w]) return w;
        return -1;
    }

    /**
     * Bit w set = way w is valid and not locked (a replacement candidate). Fully associative layout: -1 if
     * there is any candidate (the choice is {@link #lruState()}'s), else 0.
     */
    public long candidates(int set) {
        if (where != null) return lruVictim() >= 0 ? -1L : 0L;
        int b = set * ways;
        long m = 0;
        for (int w = 0; w < ways; w++) if (valid[b + w] != 0 && !locked[b + w]) m |= 1L << w;
        return m;
    }

    /** Gives way {@code i} the tag {@code line} (-1: none); the fully associative layout keeps its map and LRU order. */
    public void setTag(int i, long line) {
        if (where != null && tag[i] != line) {
            if (tag[i] != -1) where.remove(tag[i]);
            if (line != -1) {
                where.put(line, i);
                touch(i);
            } else unlink(i);
        }
        tag[i] = line;
    }

    /**
     * Way {@code i}'s line leaves without a victim choice (an invalidation, a flush, a dropped frame): invalidated, and
     * {@code told} (the cache's replacement state) hears of it ({@link ReplacementPolicy.State#onInvalidate}).
     */
    public void invalidate(int i, ReplacementPolicy.State told) {
        invalidate(i);
        told.onInvalidate(i / ways, i % ways);
    }

    public void invalidate(int i) {
        valid[i] = 0;
        dirty[i] = 0;
        if (where != null && tag[i] != -1) {
            setTag(i, -1);
            freeWay(0); // drops claimed ways from the top, so the stack never holds a way twice
            free[freeTop++] = i;
        }
        tag[i] = -1;
    }

    /** The replacement state of the fully associative layout: LRU over valid, unlocked ways. */
    public ReplacementPolicy.State lruState() {
        if (where == null) throw new IllegalStateException("not a fully associative tag store");
        return new ReplacementPolicy.State() {
            @Override public void onHit(int set, int way) { touch(way); }

            @Override public void onFill(int set, int way) { touch(way); }

            @Override public int victim(int set, long candidates) { return lruVictim(); }
        };
    }

    /** From the LRU end, the first valid, unlocked way; locked ways there are at most the transactions in flight. */
    private int lruVictim() {
        for (int i = tail; i >= 0; i = prev[i]) if (valid[i] != 0 && !locked[i]) return i;
        return -1;
    }

    private void touch(int i) {
        if (head == i) return;
        unlink(i);
        prev[i] = -1;
        next[i] = head;
        if (head >= 0) prev[head] = i;
        head = i;
        if (tail < 0) tail = i;
    }

    private void unlink(int i) {
        if (prev[i] == -2) return;
        int p = prev[i], n = next[i];
        if (p >= 0) next[p] = n;
        else head = n;
        if (n >= 0) prev[n] = p;
        else tail = p;
        prev[i] = -2;
    }
}
