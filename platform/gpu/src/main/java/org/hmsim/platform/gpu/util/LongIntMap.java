package org.hmsim.platform.gpu.util;

import java.util.Arrays;

/**
 * An open-addressing map from long keys (line or page addresses) to int values (MSHR or walk indices),
 * in primitive arrays so that MSHR look-ups on the hot path neither box nor allocate. Linear probing with
 * backward-shift deletion; the capacity is fixed at construction (four times the entry bound, rounded up to a
 * power of two), which suits MSHR files whose size is a hardware parameter.
 */
public final class LongIntMap {
    private static final int EMPTY = -1;
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
        Arrays.fill(vals, EMPTY);
        mask = cap - 1;
    }

    private int slot(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29)) & mask;
    }

    /** The value of {@code k}, or -1. */
    public int get(long k) {
        int i = slot(k);
        while (vals[i] != EMPTY) {
            if (keys[i] == k) return vals[i];
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Maps {@code k} to {@code v} (v &gt;= 0). */
    public void put(long k, int v) {
        int i = slot(k);
        while (vals[i] != EMPTY) {
            if (keys[i] == k) {
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
        while (vals[i] != EMPTY) {
            if (keys[i] == k) {
                shiftBack(i);
                size--;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    private void shiftBack(int hole) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (vals[i] == EMPTY) break;
            int home = slot(keys[i]);
            // The entry at i may move into the hole if its home is not cyclically within (hole, i].
            boolean between = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!between) {
                keys[hole] = keys[i];
                vals[hole] = vals[i];
                hole = i;
            }
        }
        vals[hole] = EMPTY;
    }

    public int size() { return size; }
}
