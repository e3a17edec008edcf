package org.hmsim.frc;

import org.hmsim.api.policy.L2MissPathPolicy;

/**
 * The FRC miss path (seed 003 §M7): the L2 bank gives each miss a free entry of its Fetch and
 * Replacement Cache, where the fetch waits while the victim stays valid. The mechanism itself is in the
 * platform's L2 (org.hmsim.platform.gpu.cache.L2Slice, FetchReplacementCache), parametrised by these
 * values, so the hot path never calls into this bundle.
 */
final class FrcMissPath implements L2MissPathPolicy {
    private final int entries, ways, swapCycles;
    private final boolean takesMshr, bankLocalIndex;

    FrcMissPath(int entries, int ways, int swapCycles, boolean takesMshr, boolean bankLocalIndex) {
        this.entries = entries;
        this.ways = ways;
        this.swapCycles = swapCycles;
        this.takesMshr = takesMshr;
        this.bankLocalIndex = bankLocalIndex;
    }

    @Override public int fetchBuffersPerBank() { return entries; }

    @Override public int fetchBufferWays() { return ways; }

    @Override public int swapCycles() { return swapCycles; }

    @Override public boolean fetchBufferTakesMshr() { return takesMshr; }

    @Override public boolean fetchBufferBankLocalIndex() { return bankLocalIndex; }
}
