package org.hmsim.baseline.replacement;

import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.hmsim.api.policy.ReplacementPolicy;

/**
 * Random replacement: a uniformly drawn candidate way. Each cache draws from its own stream (named after
 * the cache), so a cache's choices do not depend on how many other caches the machine has.
 */
public final class RandomReplacement implements ReplacementPolicy {
    private final Function<String, RandomGenerator> streams;

    /** @param streams a deterministic random stream per name (the policy context's {@code random}) */
    public RandomReplacement(Function<String, RandomGenerator> streams) { this.streams = streams; }

    @Override
    public State forCache(String cacheName, int sets, int ways) {
        RandomGenerator rng = streams.apply("replacement." + cacheName);
        return new State() {
            @Override public void onHit(int set, int way) {}

            @Override public void onFill(int set, int way) {}

            @Override
            public int victim(int set, long candidates) {
                int k = rng.nextInt(Long.bitCount(candidates));
                long m = candidates;
                for (int i = 0; i < k; i++) m &= m - 1;
                return Long.numberOfTrailingZeros(m);
            }
        };
    }
}
