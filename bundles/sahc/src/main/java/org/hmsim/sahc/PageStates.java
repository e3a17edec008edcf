package org.hmsim.sahc;

/**
 * The coherence bits of the page table (seed 001 §4.1: two bits of permission and a 2-bit saturating
 * fault counter per PTE), keyed by physical page number: an open-addressing table of primitive arrays,
 * which grows only while new pages are touched. A byte holds the state (low nibble) and the counter.
 */
final class PageStates {
    static final int UNTOUCHED = 0, CPU_ONLY = 1, GPU_ONLY = 2, CPU_GPU = 3, CPU_INIT = 4;

    private long[] keys = new long[1 << 12];
    private byte[] value = new byte[1 << 12];
    private int size;

    int state(long page) {
        int i = slot(page);
        return keys[i] == 0 ? UNTOUCHED : value[i] & 0xF;
    }

    int faults(long page) {
        int i = slot(page);
        return keys[i] == 0 ? 0 : (value[i] >>> 4) & 0xF;
    }

    void set(long page, int state, int faults) {
        int i = slot(page);
        if (keys[i] == 0) {
            keys[i] = page + 1;
            if (++size * 2 > keys.length) {
                value[i] = (byte) (state | faults << 4);
                grow();
                return;
            }
        }
        value[i] = (byte) (state | faults << 4);
    }

    int size() { return size; }

    /** Counts pages in {@code state}. */
    int count(int state) {
        int n = 0;
        for (int i = 0; i < keys.length; i++) if (keys[i] != 0 && (value[i] & 0xF) == state) n++;
        return n;
    }

    private int slot(long page) {
        int mask = keys.length - 1;
        long x = page * 0x9E3779B97F4A7C15L;
        int i = (int) ((x ^ (x >>> 29)) & mask);
        while (keys[i] != 0 && keys[i] != page + 1) i = (i + 1) & mask;
        return i;
    }

    private void grow() {
        long[] k = keys;
        byte[] v = value;
        keys = new long[k.length * 2];
        value = new byte[k.length * 2];
        for (int j = 0; j < k.length; j++) {
            if (k[j] == 0) continue;
            int i = slot(k[j] - 1);
            keys[i] = k[j];
            value[i] = v[j];
        }
    }
}
