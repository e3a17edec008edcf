package org.hmsim.memsched;

import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.DramSchedulerPolicy;

/**
 * FR-FCFS+Cap (Mutlu and Moscibroda, MICRO 2007, §7 "FR-FCFS+Cap"): row hits go first only until {@code cap} column
 * commands have used the bank's open row; after that a hit ranks with the misses, so the bank's oldest request goes
 * next, and if that is a miss its PRE closes the row. It bounds how long a stream of row hits (a GPU's) can hold back
 * an older miss (a CPU's) in the same bank.
 */
final class FrFcfsCap implements DramSchedulerPolicy {
    private final int cap;

    FrFcfsCap(int cap) { this.cap = cap; }

    @Override public State forChannel(int pool, int channel, int banks) { return new Channel(banks); }

    private final class Channel implements State {
        /** Column commands served from each bank's open row since it was opened. */
        private final int[] served;

        Channel(int banks) { served = new int[banks]; }

        @Override public long rank(MemRequest r, int bank, boolean rowHit) { return rowHit && served[bank] < cap ? 0 : 1; }

        @Override public void onActivate(MemRequest r, int bank) { served[bank] = 0; }

        @Override public void onColumn(MemRequest r, int bank) { served[bank]++; }
    }
}
