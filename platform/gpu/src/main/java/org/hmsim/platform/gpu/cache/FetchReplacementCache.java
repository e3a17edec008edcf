package org.hmsim.platform.gpu.cache;

/**
 * The entry geometry of one L2 bank's Fetch and Replacement Cache (FRC, seed 003 §M7, Ch. 6.4.2): a small
 * set-associative array of block-sized entries in which a fetch waits while the victim it will replace
 * stays valid (and hittable) in the L2. After the swap an entry holds the victim during its invalidation
 * and write-back, then is free again.
 *
 * <p>Only allocation is modelled here (which entry a line may use: set = line number mod sets, as the
 * thesis leaves the index open - "organized as a conventional cache, although its geometry can be different
 * from that of the L2", Ch. 6.4.2 - with the line number taken either whole, as Multi2Sim's caches do, or
 * within the bank); the entry's control state lives in the L2's transaction table, found by
 * the incoming line like an MSHR. {@code ways >= entries} or {@code ways == 0} gives one fully
 * associative set (the thesis's 4-entry FRC is taken as 4-way fully associative).
 */
public final class FetchReplacementCache {
    public final int entries, ways, sets;
    /** Set index from the line number within the bank (bank-interleave bits removed) instead of the line number. */
    public final boolean bankLocalIndex;
    /** Whether an entry also takes an L2 MSHR while its fetch is in flight (§8 q1). */
    public final boolean takesMshr;
    private final int lineShift;
    /** Free entries per set, and a free-entry stack per set (set * ways + k). */
    private final int[] freeCount;
    private final int[] freeStack;
    private int busy;

    public FetchReplacementCache(int entries, int ways, int lineBytes) { this(entries, ways, lineBytes, false, false); }

    public FetchReplacementCache(int entries, int ways, int lineBytes, boolean bankLocalIndex, boolean takesMshr) {
        this.bankLocalIndex = bankLocalIndex;
        this.takesMshr = takesMshr;
        if (entries <= 0) throw new IllegalArgumentException("FRC entries must be > 0");
        int w = ways <= 0 || ways >= entries ? entries : ways;
        if (entries % w != 0) throw new IllegalArgumentException("FRC entries (" + entries + ") must be a multiple of its ways (" + w + ")");
        this.entries = entries;
        this.ways = w;
        this.sets = entries / w;
        this.lineShift = Integer.numberOfTrailingZeros(lineBytes);
        freeCount = new int[sets];
        freeStack = new int[entries];
        for (int s = 0; s < sets; s++) {
            freeCount[s] = w;
            for (int k = 0; k < w; k++) freeStack[s * w + k] = s * w + (w - 1 - k);
        }
    }

    /** FRC set of a line address ({@code line}: as the bank indexes it, see {@link #bankLocalIndex}). */
    public int setOf(long line) { return (int) Long.remainderUnsigned(line >>> lineShift, sets); }

    /** Whether {@code line}'s FRC set has a free entry. */
    public boolean hasFree(long line) { return freeCount[setOf(line)] > 0; }

    /** An entry for {@code line}, or -1 if its FRC set has none free. */
    public int allocate(long line) {
        int s = setOf(line);
        if (freeCount[s] == 0) return -1;
        busy++;
        return freeStack[s * ways + --freeCount[s]];
    }

    public void free(int entry) {
        int s = entry / ways;
        freeStack[s * ways + freeCount[s]++] = entry;
        busy--;
    }

    /** Entries holding a fetch, a swap or an evicting victim. */
    public int busy() { return busy; }
}
