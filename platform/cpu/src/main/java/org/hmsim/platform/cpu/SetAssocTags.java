package org.hmsim.platform.cpu;

/**
 * Tags of a set-associative array with LRU: line addresses in a {@code long[]} (line + 1, so 0 is empty),
 * a state byte per way and an LRU stamp. Used by the CPU caches and the directory; allocation-free.
 */
final class SetAssocTags {
    final int sets, ways, lineShift;
    final long[] tag;
    final byte[] state;
    private final long[] stamp;
    private long clock;

    SetAssocTags(int sets, int ways, int lineBytes) {
        if (Integer.bitCount(sets) != 1) throw new IllegalArgumentException("sets must be a power of two, was " + sets);
        this.sets = sets;
        this.ways = ways;
        this.lineShift = Integer.numberOfTrailingZeros(lineBytes);
        this.tag = new long[sets * ways];
        this.state = new byte[sets * ways];
        this.stamp = new long[sets * ways];
    }

    int set(long line) { return (int) ((line >>> lineShift) & (sets - 1)); }

    /** The slot holding {@code line}, or -1. */
    int find(long line) {
        int base = set(line) * ways;
        long t = line + 1;
        for (int i = base; i < base + ways; i++) if (tag[i] == t) return i;
        return -1;
    }

    /** The slot to fill for {@code line}: an empty way, else the least recently used. */
    int victim(long line) {
        int base = set(line) * ways;
        int best = base;
        for (int i = base; i < base + ways; i++) {
            if (tag[i] == 0) return i;
            if (stamp[i] < stamp[best]) best = i;
        }
        return best;
    }

    boolean valid(int slot) { return tag[slot] != 0; }

    long line(int slot) { return tag[slot] - 1; }

    void fill(int slot, long line, int st) {
        tag[slot] = line + 1;
        state[slot] = (byte) st;
        touch(slot);
    }

    void touch(int slot) { stamp[slot] = ++clock; }

    void clear(int slot) {
        tag[slot] = 0;
        state[slot] = Moesi.I;
    }
}
