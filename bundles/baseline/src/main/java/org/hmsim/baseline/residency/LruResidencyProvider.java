package org.hmsim.baseline.residency;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * {@code lru}: evict the least recently used resident page, recency refreshed on every last-level TLB miss
 * to the page (the access information a driver can see; per-access recency is not observable).
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=residency", PolicyProvider.NAME + "=lru", PolicyProvider.VERSION + "=1.0.0"})
public final class LruResidencyProvider implements PolicyProvider {
    /** Victims are chosen only when demand-paged GPU memory is full. */
    @Override public void check(org.hmsim.api.policy.Params params, org.hmsim.api.policy.RunFacts run) { run.requireDemandPaging("residency lru"); }

    @Override public Slot slot() { return Slot.RESIDENCY; }

    @Override public String name() { return "lru"; }

    @Override public String description() {
        return "Demand-paging eviction of the least recently used page, recency from last-level TLB misses (seed 002 §2.3 calls true LRU too costly; for comparison with fifo). Where the L2 TLB covers the footprint (the etc preset) a resident page is not walked again and lru evicts as fifo.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        return new ClockResidency(context.memory()) {
            @Override public void onPageAccessed(long vpn) { clock.touch(vpn); }
        };
    }
}
