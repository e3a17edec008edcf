package org.hmsim.platform.gpu.util;

/**
 * An open-addressing map from long keys (line or page addresses) to int values (MSHR or walk indices),
 * in one primitive array so that MSHR look-ups on the hot path neither box nor allocate. Linear probing with
 * backward-shift deletion; the capacity is fixed at construction (four times the entry bound, rounded up to a
 * power of two), which suits MSHR files whose size is a hardware parameter.
 *
 * <p>Each slot is a key and its value side by side ({@code table[2i]}, {@code table[2i + 1]}): a probe reads
 * one host cache line, where separate key and value arrays cost two. Every SM has its own maps, and between
 * its ticks the other SMs' state evicts them from the host's caches (a JFR profile of the bench on a busy
 * machine put 14 % of its samples in these maps, most in the L1's MSHR removal at a fill and the L1 TLB's
 * look-up). Measured against separate arrays: neutral within the bench's spread (docs/performance-history.md).
 */
public final class LongIntMap {
    private static final long EMPTY = -1;
    private final long[] table;
    private final int mask;
    private int size;

    public LongIntMap(int maxEntries) {
        // At most a quarter full, so probe and backward-shift chains stay short on every miss and fill
        // (linear probing degrades fast above half full; the arrays are tiny either way).
        int cap = Integer.highestOneBit(Math.max(4, maxEntries * 4 - 1)) << 1;
        table = new long[2 * cap];
        for (int i = 1; i < table.length; i += 2) table[i] = EMPTY;
        mask = cap - 1;
    }

    private int slot(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29)) & mask;
    }

    /** The value of {@code k}, or -1. */
    public int get(long k) {
        int i = slot(k);
        long v;
        while ((v = table[2 * i + 1]) != EMPTY) {
            if (table[2 * i] == k) return (int) v;
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Maps {@code k} to {@code v} (v &gt;= 0). */
    public void put(long k, int v) {
        if (v < 0) throw new IllegalArgumentException("LongIntMap values must be >= 0: " + v);
        int i = slot(k);
        while (table[2 * i + 1] != EMPTY) {
            if (table[2 * i] == k) {
                table[2 * i + 1] = v;
                return;
            }
            i = (i + 1) & mask;
        }
        if (size + 1 > (mask + 1) * 3 / 4) throw new IllegalStateException("LongIntMap over capacity");
        table[2 * i] = k;
        table[2 * i + 1] = v;
        size++;
    }

    /** Removes {@code k} if present. */
    public void remove(long k) {
        int i = slot(k);
        while (table[2 * i + 1] != EMPTY) {
            if (table[2 * i] == k) {
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
            if (table[2 * i + 1] == EMPTY) break;
            int home = slot(table[2 * i]);
            // The entry at i may move into the hole if its home is not cyclically within (hole, i].
            boolean between = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!between) {
                table[2 * hole] = table[2 * i];
                table[2 * hole + 1] = table[2 * i + 1];
                hole = i;
            }
        }
        table[2 * hole + 1] = EMPTY;
    }

    public int size() { return size; }
}
