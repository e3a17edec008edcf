package org.hmsim.platform.gpu.tlb;

import java.util.Arrays;
import org.hmsim.platform.gpu.util.LongIntMap;

/**
 * A set-associative TLB with LRU replacement: tags (virtual page numbers), page base physical addresses
 * and LRU stamps in flat arrays indexed {@code set * ways + way}. A fully associative TLB is one set.
 */
public final class TlbArray {
    private final int sets, ways;
    private final long[] vpn;
    private final long[] base;
    private final long[] stamp;
    private long clock;
    /** Index of the entry that hit last: consecutive lookups mostly touch the same page (see lookup). */
    private int mru;
    /** sets - 1 when sets is a power of two (the set index is then a mask), else -1. */
    private final int setMask;
    private long hits, misses;
    /**
     * Wide sets (e.g. a fully associative 64-entry L1 TLB) only: page -> entry index, so a lookup that misses
     * the last hit's entry costs a hash probe instead of a scan of every way. The answer is the scan's: a page
     * is held at most once. Null for narrow sets, where the scan is cheaper.
     */
    private final LongIntMap index;

    public TlbArray(int entries, int ways) {
        if (entries <= 0 || ways <= 0 || entries % ways != 0)
            throw new IllegalArgumentException("TLB: entries (" + entries + ") must be a positive multiple of ways (" + ways + ")");
        this.ways = ways;
        this.sets = entries / ways;
        vpn = new long[entries];
        base = new long[entries];
        stamp = new long[entries];
        Arrays.fill(vpn, -1L);
        setMask = Integer.bitCount(sets) == 1 ? sets - 1 : -1;
        index = ways > 16 ? new LongIntMap(entries) : null;
    }

    private int set(long page) {
        long h = page ^ (page >>> 17);
        return setMask >= 0 ? (int) h & setMask : (int) Long.remainderUnsigned(h, sets);
    }

    /** The page base physical address of {@code page}, or -1 on a miss; counts the hit or miss. */
    public long lookup(long page) {
        // A page is held at most once, so finding it at the last hit's index is the scan's own answer;
        // with wide (e.g. fully associative 64-entry) TLBs this skips most scans.
        int m = mru;
        if (vpn[m] == page) {
            stamp[m] = ++clock;
            hits++;
            return base[m];
        }
        if (index != null) {
            int w = index.get(page);
            if (w >= 0) {
                stamp[w] = ++clock;
                hits++;
                mru = w;
                return base[w];
            }
            misses++;
            return -1;
        }
        int b = set(page) * ways;
        for (int w = b; w < b + ways; w++) {
            if (vpn[w] == page) {
                stamp[w] = ++clock;
                hits++;
                mru = w;
                return base[w];
            }
        }
        misses++;
        return -1;
    }

    /**
     * Takes back the miss the last {@link #lookup} counted, for a request that could not act on it and will look up
     * again (a miss changes nothing else, so the array is as if the look-up had not happened).
     */
    public void retractMiss() { misses--; }

    /** Installs a translation, evicting the least recently used entry of its set. */
    public void insert(long page, long pageBase) {
        int b = set(page) * ways;
        int victim = b;
        for (int w = b; w < b + ways; w++) {
            if (vpn[w] == page || vpn[w] == -1) { victim = w; break; }
            if (stamp[w] < stamp[victim]) victim = w;
        }
        if (index != null && vpn[victim] != page) {
            if (vpn[victim] != -1) index.remove(vpn[victim]);
            index.put(page, victim);
        }
        vpn[victim] = page;
        base[victim] = pageBase;
        stamp[victim] = ++clock;
    }

    /** Drops every entry; returns how many were held (a change of coherence protocol: every page is walked, and checked, again). */
    public int invalidateAll() {
        int held = 0;
        for (int w = 0; w < vpn.length; w++) {
            if (vpn[w] == -1) continue;
            if (index != null) index.remove(vpn[w]);
            vpn[w] = -1;
            held++;
        }
        return held;
    }

    /** Drops {@code page} (a shootdown). */
    public void invalidate(long page) {
        int b = set(page) * ways;
        for (int w = b; w < b + ways; w++) {
            if (vpn[w] == page) {
                vpn[w] = -1;
                if (index != null) index.remove(page);
            }
        }
    }

    public long hits() { return hits; }

    public long misses() { return misses; }
}
