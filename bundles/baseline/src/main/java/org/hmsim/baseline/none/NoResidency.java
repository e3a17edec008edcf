package org.hmsim.baseline.none;

import java.util.List;
import org.hmsim.baseline.residency.ClockResidency;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * The {@code none} residency policy: names no victim and proposes no prefetch of its own. Under demand paging the
 * unified-memory driver then evicts in migration age (as {@code fifo}) and the machine's prefetcher
 * ({@code uvm.prefetcher}) still runs: until 2026-11-28 the description said it "evicts nothing and prefetches nothing
 * beyond the faulting page", which a plugin author comparing against it took at its word.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=residency", PolicyProvider.NAME + "=none", PolicyProvider.VERSION + "=1.1.0"})
public final class NoResidency implements PolicyProvider {
    @Override public Slot slot() { return Slot.RESIDENCY; }

    @Override public String name() { return "none"; }

    /** 1.1.0: hands its successor the pages' age order at a live swap (1.0.0 handed nothing). */
    @Override public String version() { return "1.1.0"; }

    @Override public String description() {
        return "No policy of its own (the baseline): names no victim and no prefetch, so under demand paging (uvm:) the driver evicts the page migrated in longest ago, as fifo, and the machine's prefetcher (uvm.prefetcher, tree by default) still prefetches.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    /**
     * Names no victim, but keeps the order pages became resident in (the driver's own eviction order) to hand a successor
     * at a live swap: a review found {@code none} -> {@code fifo} 13.6 % slower than {@code fifo} -> {@code fifo} on a
     * workload where none, fifo and lru run alike, because fifo then started with an empty clock and evicted only pages
     * that arrived after the swap.
     */
    @Override public Policy create(PolicyContext context, Params params) {
        return new ClockResidency(context.memory()) {
            @Override public long chooseVictim(int pool) { return -1; }
        };
    }
}
