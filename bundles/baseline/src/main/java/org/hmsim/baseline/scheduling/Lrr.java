package org.hmsim.baseline.scheduling;

import org.hmsim.api.policy.WarpSchedulerPolicy;

/**
 * Loose round-robin warp scheduling: the next ready warp slot after the one picked last, wrapping around
 * ("loose" because warps that are not ready are skipped rather than waited for).
 */
public final class Lrr implements WarpSchedulerPolicy {
    @Override
    public State forSm(int gpu, int sm, int warpSlots) { return new LrrState(); }

    static final class LrrState implements State {
        private int last = -1;

        @Override
        public void onWarpStart(int slot, long age) {}

        @Override
        public int pick(long ready) {
            long after = last >= 63 ? 0 : ready & (-1L << (last + 1));
            last = Long.numberOfTrailingZeros(after != 0 ? after : ready);
            return last;
        }
    }
}
