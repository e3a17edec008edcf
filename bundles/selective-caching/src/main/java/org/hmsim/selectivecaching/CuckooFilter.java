package org.hmsim.selectivecaching;

/**
 * The remote directory's storage (seed 000 §6.2.1): a cuckoo filter (Fan et al.) of line addresses with
 * buckets of {@value #SLOTS} fingerprints. It never reports a false negative; a false positive happens when
 * another line's fingerprint sits in one of the two candidate buckets, about 2 x 4 / 2^bits when full
 * (8-bit fingerprints: 3.1 %, the thesis's 3 %). Entries are never removed: when an insertion finds no room
 * after {@value #MAX_KICKS} relocations, or the occupancy reaches the high-water mark, the owner flushes and
 * calls {@link #clear}.
 */
final class CuckooFilter {
    static final int SLOTS = 4, MAX_KICKS = 500;
    private final int bits, bucketMask;
    private final short[] fp;
    private final long capacity;
    private long size;
    private long victimSeed = 0x9E3779B97F4A7C15L;

    /** A filter with room for about {@code entries} fingerprints of {@code bits} bits (1..16). */
    CuckooFilter(long entries, int bits) {
        if (bits < 1 || bits > 16) throw new IllegalArgumentException("fingerprint bits must be 1..16, got " + bits);
        long buckets = Long.highestOneBit(Math.max(1, (entries + SLOTS - 1) / SLOTS));
        if (buckets * SLOTS < entries) buckets <<= 1;
        if (buckets > (1 << 26)) throw new IllegalArgumentException("remote directory too large: " + entries + " entries");
        this.bits = bits;
        this.bucketMask = (int) buckets - 1;
        this.fp = new short[(int) buckets * SLOTS];
        this.capacity = buckets * SLOTS;
    }

    long capacity() { return capacity; }

    long size() { return size; }

    /** Storage in bytes (fingerprint bits x slots). */
    long bytes() { return capacity * bits / 8; }

    private static long mix(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }

    private int fingerprint(long key) {
        int f = (int) (mix(key ^ 0x5bd1e995L) & ((1 << bits) - 1));
        return f == 0 ? 1 : f; // 0 marks an empty slot
    }

    private int index(long key) { return (int) (mix(key) & bucketMask); }

    private int alt(int i, int f) { return (i ^ (int) mix(f)) & bucketMask; }

    boolean contains(long key) {
        int f = fingerprint(key), i = index(key);
        return has(i, f) || has(alt(i, f), f);
    }

    private boolean has(int b, int f) {
        for (int k = 0; k < SLOTS; k++) if (fp[b * SLOTS + k] == f) return true;
        return false;
    }

    private boolean put(int b, int f) {
        for (int k = 0; k < SLOTS; k++) {
            if (fp[b * SLOTS + k] == 0) {
                fp[b * SLOTS + k] = (short) f;
                size++;
                return true;
            }
        }
        return false;
    }

    /** Inserts {@code key}; false if no room was found (the filter is full: flush it). */
    boolean insert(long key) {
        int f = fingerprint(key), i = index(key);
        if (put(i, f) || put(alt(i, f), f)) return true;
        int b = alt(i, f);
        for (int n = 0; n < MAX_KICKS; n++) {
            victimSeed = mix(victimSeed + n);
            int k = (int) (victimSeed & (SLOTS - 1));
            int out = fp[b * SLOTS + k];
            fp[b * SLOTS + k] = (short) f;
            f = out;
            b = alt(b, f);
            if (put(b, f)) return true;
        }
        return false; // one fingerprint is lost: the caller must flush (no false negatives after clear)
    }

    void clear() {
        java.util.Arrays.fill(fp, (short) 0);
        size = 0;
    }
}
