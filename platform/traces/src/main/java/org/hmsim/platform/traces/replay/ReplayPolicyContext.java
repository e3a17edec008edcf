package org.hmsim.platform.traces.replay;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.stats.StatsRegistry;

/**
 * The context a replacement policy gets in a cache replay: seeded random streams and a statistics
 * registry, but no machine and no memory manager (a replay has neither; a policy that needs them cannot
 * be used for replay).
 */
public final class ReplayPolicyContext implements PolicyContext {
    private final long seed;
    private final StatsRegistry stats = new StatsRegistry();

    public ReplayPolicyContext(long seed) { this.seed = seed; }

    @Override public MachineView machine() { return null; }

    @Override public MemoryManager memory() { return null; }

    @Override public Stats stats() { return stats; }

    @Override
    public RandomGenerator random(String stream) {
        long h = seed;
        for (int i = 0; i < stream.length(); i++) h = h * 0x100000001B3L ^ stream.charAt(i);
        return new SplittableRandom(h);
    }

    @Override public String runId() { return "replay"; }
}
