package org.hmsim.baseline.replacement;

import org.hmsim.api.policy.ReplacementPolicy;

/**
 * Least-recently-used replacement, ChampSim style: one {@code long} stamp per (set, way) in a flat array
 * per cache, bumped from a per-cache clock on every hit and fill; the victim is the candidate with the
 * smallest stamp (ties: the lowest way).
 */
public final class Lru implements ReplacementPolicy {
    @Override
    public State forCache(String cacheName, int sets, int ways) { return new LruState(sets, ways); }

    static final class LruState implements State {
        private final int ways;
        private final long[] stamp;
        private long clock;

        LruState(int sets, int ways) {
            this.ways = ways;
            this.stamp = new long[sets * ways];
        }

        @Override
        public void onHit(int set, int way) { stamp[set * ways + way] = ++clock; }

        @Override
        public void onFill(int set, int way) { stamp[set * ways + way] = ++clock; }

        @Override
        public int victim(int set, long candidates) {
            int base = set * ways, best = -1;
            long bestStamp = Long.MAX_VALUE;
            for (long m = candidates; m != 0; m &= m - 1) {
                int w = Long.numberOfTrailingZeros(m);
                if (stamp[base + w] < bestStamp) {
                    bestStamp = stamp[base + w];
                    best = w;
                }
            }
            return best;
        }
    }
}
