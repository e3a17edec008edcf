package org.hmsim.baseline.residency;

import java.util.Map;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.ResidencyPolicy;

/**
 * A residency policy that evicts by a {@link PageClock}: what fifo and lru share, their live-swap hand-over included
 * (and {@code none}'s, which keeps the clock only to hand it over).
 */
public class ClockResidency implements ResidencyPolicy {
    /** The key of the hand-over: resident pages, first to be evicted first (ETC's residency uses it too). */
    static final String AGE_ORDER = "age_order";

    final PageClock clock;

    public ClockResidency(MemoryManager memory) { this.clock = new PageClock(memory); }

    @Override public void onPageResident(long vpn, int pool) { clock.touch(vpn); }

    @Override public long chooseVictim(int pool) { return clock.oldest(pool); }

    @Override public Map<String, Object> exportState() { return Map.of(AGE_ORDER, clock.order()); }

    @Override public void importState(Map<String, Object> state) {
        if (state.get(AGE_ORDER) instanceof long[] order) clock.adopt(order);
    }
}
