package org.hmsim.api.policy;

/**
 * Victim choice within a cache set. The policy is a factory of per-cache state (ChampSim style: flat
 * primitive arrays indexed by set and way), since one simulation has many caches.
 */
public interface ReplacementPolicy extends Policy {

    State forCache(String cacheName, int sets, int ways);

    /** Replacement state of one cache. Ways are at most 64. */
    interface State {
        /** A line in (set, way) was hit. */
        void onHit(int set, int way);

        /** A line was filled into (set, way). */
        void onFill(int set, int way);

        /**
         * The way to evict among {@code candidates} (bit w set = way w may be evicted: valid and not
         * locked by a transaction in flight). Never called with an empty mask.
         */
        int victim(int set, long candidates);
    }
}
