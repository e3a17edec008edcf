package org.hmsim.platform.cpu;

/**
 * Toggle counting of seed 001 Table 1: a toggle is a last-level miss to a 4 KB page by the CPU when the
 * GPU touched it last, or the reverse. An open-addressing table from page number to last agent
 * (primitive arrays; grows while the footprint is touched for the first time).
 */
final class PageToggles {
    private long[] keys = new long[1 << 12];
    private byte[] last = new byte[1 << 12];
    private int size;
    long toggles, cpuToGpu, gpuToCpu;

    /** Records an access by the CPU ({@code cpu}) or a GPU to {@code page}. */
    void access(long page, boolean cpu) {
        byte who = (byte) (cpu ? 1 : 2);
        int i = slot(page);
        if (keys[i] == 0) {
            keys[i] = page + 1;
            last[i] = who;
            if (++size * 2 > keys.length) grow();
            return;
        }
        if (last[i] != who) {
            toggles++;
            if (cpu) gpuToCpu++;
            else cpuToGpu++;
            last[i] = who;
        }
    }

    private int slot(long page) {
        int mask = keys.length - 1;
        int i = (int) (mix(page) & mask);
        while (keys[i] != 0 && keys[i] != page + 1) i = (i + 1) & mask;
        return i;
    }

    private static long mix(long x) {
        x *= 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 29);
    }

    private void grow() {
        long[] k = keys;
        byte[] l = last;
        keys = new long[k.length * 2];
        last = new byte[k.length * 2];
        for (int j = 0; j < k.length; j++) {
            if (k[j] == 0) continue;
            int i = slot(k[j] - 1);
            keys[i] = k[j];
            last[i] = l[j];
        }
    }
}
