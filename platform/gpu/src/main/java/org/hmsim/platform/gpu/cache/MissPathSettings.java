package org.hmsim.platform.gpu.cache;

import org.hmsim.api.policy.L2MissPathPolicy;

/**
 * An l2-miss-path policy's constants, read once (when the machine is built, and when a swap to the policy is staged)
 * and checked: the L2 slices read these, never the policy, so a policy's getter is not called per miss (a trial's
 * getter that threw at its first miss failed the run after its swap had been recorded "ok", and one whose value
 * followed the clock changed the miss path with no drain and no record), and a value no L2 can have (a negative
 * entry count) is refused, naming the getter, instead of running as the conventional path under the policy's name.
 */
public record MissPathSettings(int fetchBuffersPerBank, int swapCycles, int fetchBufferWays, boolean fetchBufferTakesMshr,
                               boolean fetchBufferBankLocalIndex, int victimCacheLines, boolean postsWriteBacks)
        implements L2MissPathPolicy {

    /** More FRC entries per bank than this is no design (the thesis sweeps 4-512); each is a transaction slot. */
    public static final int MAX_FETCH_BUFFERS = 1 << 16;

    /** {@code policy}'s constants, checked; an IllegalArgumentException names the getter and its value. */
    public static MissPathSettings of(L2MissPathPolicy policy) {
        return new MissPathSettings(
                within("fetchBuffersPerBank()", policy.fetchBuffersPerBank(), MAX_FETCH_BUFFERS, "FRC entries per L2 bank; 0 = none"),
                within("swapCycles()", policy.swapCycles(), Integer.MAX_VALUE, "cycles"),
                within("fetchBufferWays()", policy.fetchBufferWays(), Integer.MAX_VALUE, "0 = fully associative"),
                policy.fetchBufferTakesMshr(), policy.fetchBufferBankLocalIndex(),
                within("victimCacheLines()", policy.victimCacheLines(), Integer.MAX_VALUE, "lines per bank; 0 = none, Integer.MAX_VALUE = unbounded"),
                policy.postsWriteBacks());
    }

    private static int within(String getter, int value, int max, String what) {
        if (value < 0 || value > max)
            throw new IllegalArgumentException("l2-miss-path " + getter + " returned " + value + ": must be 0.." + max + " (" + what + ")");
        return value;
    }
}
