package org.hmsim.api.policy;

/**
 * Least-recently-used replacement state of one cache, ChampSim style: one {@code long} stamp per (set, way), bumped from
 * the cache's clock on every hit and fill; the victim is the candidate with the smallest stamp (ties: the lowest way).
 * The baseline {@code lru} policy's state, and the one a cache keeps when its machine pins it to LRU
 * ({@code gpu.l1.replacement: lru}) whatever the replacement slot holds. Since api.policy 1.15.0.
 */
public final class LruState implements ReplacementPolicy.State {
    private final int ways;
    private final long[] stamp;
    private long clock;

    public LruState(int sets, int ways) {
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
