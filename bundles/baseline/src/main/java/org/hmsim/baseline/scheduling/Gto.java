package org.hmsim.baseline.scheduling;

import org.hmsim.api.policy.WarpSchedulerPolicy;

/**
 * Greedy-then-oldest warp scheduling (Rogers et al., MICRO 2012; the GPGPU-Sim default): keep issuing
 * from the warp issued last while it is ready, otherwise switch to the oldest ready warp (smallest age
 * given at warp start).
 */
public final class Gto implements WarpSchedulerPolicy {
    @Override
    public State forSm(int gpu, int sm, int warpSlots) { return new GtoState(warpSlots); }

    static final class GtoState implements State {
        private final long[] age;
        private int greedy = -1;

        GtoState(int slots) { age = new long[slots]; }

        @Override
        public void onWarpStart(int slot, long a) { age[slot] = a; }

        @Override
        public int pick(long ready) {
            if (greedy >= 0 && (ready & (1L << greedy)) != 0) return greedy;
            int oldest = -1;
            for (long m = ready; m != 0; m &= m - 1) {
                int w = Long.numberOfTrailingZeros(m);
                if (oldest < 0 || age[w] < age[oldest]) oldest = w;
            }
            greedy = oldest;
            return oldest;
        }
    }
}
