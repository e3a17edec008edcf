package org.hmsim.baseline.dram;

import org.hmsim.api.policy.DramSchedulerPolicy;

/**
 * FCFS: column commands strictly in arrival order; ACT and PRE prepare each bank for its oldest request meanwhile. The
 * channel runs it as its own built-in scheduler (a ranked form could not hold younger hits back from a free bus).
 */
final class Fcfs implements DramSchedulerPolicy {
    @Override public int builtIn() { return BUILT_IN_FCFS; }

    /** Never asked: the channel runs its built-in FCFS. Every request the same rank, so oldest first. */
    @Override public State forChannel(int pool, int channel, int banks) { return (r, bank, rowHit) -> 0; }
}
