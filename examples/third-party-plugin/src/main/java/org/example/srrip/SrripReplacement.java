package org.example.srrip;

import java.util.Map;
import org.hmsim.api.policy.ReplacementPolicy;

/**
 * SRRIP-HP (Jaleel et al., ISCA 2010 §4): every line carries an M-bit re-reference prediction value (RRPV).
 * A fill inserts at 2^M-2 ("long" re-reference interval), a hit promotes to 0 ("near-immediate"), and the
 * victim is the lowest-numbered candidate way at 2^M-1 ("distant"); when no candidate is distant, all
 * candidates age by the missing amount at once (the paper's repeated increment, done in one step).
 * State is one flat byte array per cache, indexed set * ways + way (ChampSim style): no allocation on the
 * hot path.
 */
final class SrripReplacement implements ReplacementPolicy {
    private final int bits;
    private final byte max;

    SrripReplacement(int bits) {
        this.bits = bits;
        this.max = (byte) ((1 << bits) - 1);
    }

    @Override
    public State forCache(String cacheName, int sets, int ways) { return new Rrpv(sets, ways, max); }

    /** Hands over the prediction width: a successor srrip (e.g. a new version) may keep it. */
    @Override
    public Map<String, Object> exportState() { return Map.of("srrip.rrpv_bits", bits); }

    /** Nothing to import: the kernel rebuilds replacement state from the caches' contents after a swap. */
    @Override
    public void importState(Map<String, Object> state) {}

    /** The RRPVs of one cache. */
    static final class Rrpv implements State {
        private final byte[] rrpv;
        private final int ways;
        private final byte max;

        Rrpv(int sets, int ways, byte max) {
            this.rrpv = new byte[sets * ways];
            this.ways = ways;
            this.max = max;
            java.util.Arrays.fill(rrpv, max); // an empty way is the first victim
        }

        @Override
        public void onHit(int set, int way) { rrpv[set * ways + way] = 0; }

        @Override
        public void onFill(int set, int way) { rrpv[set * ways + way] = (byte) (max - 1); }

        @Override
        public int victim(int set, long candidates) {
            int base = set * ways;
            int best = -1;
            byte oldest = -1;
            for (long m = candidates; m != 0; m &= m - 1) {
                int w = Long.numberOfTrailingZeros(m);
                if (w >= ways) break;
                if (rrpv[base + w] > oldest) {
                    oldest = rrpv[base + w];
                    best = w;
                }
            }
            if (best < 0) return Long.numberOfTrailingZeros(candidates);
            int age = max - oldest; // age every candidate until the oldest reaches max
            if (age > 0)
                for (long m = candidates; m != 0; m &= m - 1) {
                    int w = Long.numberOfTrailingZeros(m);
                    if (w < ways) rrpv[base + w] = (byte) (rrpv[base + w] + age);
                }
            return best;
        }

        byte rrpv(int set, int way) { return rrpv[set * ways + way]; }
    }
}
