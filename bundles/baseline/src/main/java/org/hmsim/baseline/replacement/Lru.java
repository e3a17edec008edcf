package org.hmsim.baseline.replacement;

import org.hmsim.api.policy.LruState;
import org.hmsim.api.policy.ReplacementPolicy;

/** Least-recently-used replacement: the api's {@link LruState} per cache. */
public final class Lru implements ReplacementPolicy {
    @Override
    public State forCache(String cacheName, int sets, int ways) { return new LruState(sets, ways); }
}
