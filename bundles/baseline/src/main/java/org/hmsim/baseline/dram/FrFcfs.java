package org.hmsim.baseline.dram;

import org.hmsim.api.policy.DramSchedulerPolicy;

/**
 * FR-FCFS (Rixner et al., ISCA 2000): ready row hits first, then the oldest request. The channel runs it as its own
 * built-in scheduler; {@link #forChannel}'s ranks are the same rule (the channel's tests hold its ranked path to the
 * built-in one with them).
 */
final class FrFcfs implements DramSchedulerPolicy {
    @Override public int builtIn() { return BUILT_IN_FR_FCFS; }

    @Override public State forChannel(int pool, int channel, int banks) { return (r, bank, rowHit) -> rowHit ? 0 : 1; }
}
