package org.hmsim.platform.gpu.util;

import java.util.Arrays;

/**
 * An open-addressing map from long keys (line or page addresses) to int values (MSHR or walk indices),
 * in primitive arrays so that MSHR look-ups on the hot path neither box nor allocate. Linear probing with
 * backward-shift deletion; the capacity is fixed at construction (four times the entry bound, rounded up to a
 * power of two), which suits MSHR files whose size is a hardware parameter.
 */
public final class LongIntMap {
    /**
     * Marks a free slot in {@link #keys}: a probe then reads one array until it finds its key or a free
     * slot, and touches {@link #vals} only on a hit (the look-ups on the hot path mostly miss: an L2 read
     * that hits its line, an L1 load with no MSHR for its line). Line and page addresses are never negative.
     */
    private static final long FREE = Long.MIN_VALUE;
    private final long[] keys;
    private final int[] vals;
    private final int mask;
    private int size;

    public LongIntMap(int maxEntries) {
        // At most a quarter full, so probe and backward-shift chains stay short on every miss and fill
        // (linear probing degrades fast above half full; the arrays are tiny either way).
        int cap = Integer.highestOneBit(Math.max(4, maxEntries * 4 - 1)) << 1;
        keys = new long[cap];
        vals = new int[cap];
        Arrays.fill(keys, FREE);
        mask = cap - 1;
    }

    private int slot(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29)) & mask;
    }

    /** The value of {@code k}, or -1. */
    public int get(long k) {
        int i = slot(k);
        long x;
        while ((x = keys[i]) != k) {
            if (x == FREE) return -1;
            i = (i + 1) & mask;
        }
        return vals[i];
    }

    /** Maps {@code k} (not Long.MIN_VALUE) to {@code v} (v &gt;= 0). */
    public void put(long k, int v) {
        if (k == FREE) throw new IllegalArgumentException("LongIntMap: key Long.MIN_VALUE is reserved");
        int i = slot(k);
        long x;
        while ((x = keys[i]) != FREE) {
            if (x == k) {
                vals[i] = v;
                return;
            }
            i = (i + 1) & mask;
        }
        if (size + 1 > (mask + 1) * 3 / 4) throw new IllegalStateException("LongIntMap over capacity");
        keys[i] = k;
        vals[i] = v;
        size++;
    }

    /** Removes {@code k} if present. */
    public void remove(long k) {
        int i = slot(k);
        long x;
        while ((x = keys[i]) != k) {
            if (x == FREE) return;
            i = (i + 1) & mask;
        }
        shiftBack(i);
        size--;
    }

    private void shiftBack(int hole) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            long k = keys[i];
            if (k == FREE) break;
            int home = slot(k);
            // The entry at i may move into the hole if its home is not cyclically within (hole, i].
            boolean between = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!between) {
                keys[hole] = k;
                vals[hole] = vals[i];
                hole = i;
            }
        }
        keys[hole] = FREE;
    }

    public int size() { return size; }
}
