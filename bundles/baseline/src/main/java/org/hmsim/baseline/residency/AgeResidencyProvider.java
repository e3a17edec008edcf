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
 * {@code fifo}: evict the page that migrated in longest ago (seed 002 §2.3's "age-based LRU": a list
 * ordered by migration time, not updated on access, since true LRU is too costly for GPU memory sizes).
 * Prefetching is the platform's tree prefetcher (machine file {@code uvm.prefetcher}).
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=residency", PolicyProvider.NAME + "=fifo", PolicyProvider.VERSION + "=1.0.0"})
public final class AgeResidencyProvider implements PolicyProvider {
    /** Victims are chosen only when demand-paged GPU memory is full. */
    @Override public void check(org.hmsim.api.policy.Params params, org.hmsim.api.policy.RunFacts run) { run.requireDemandPaging("residency fifo"); }

    @Override public Slot slot() { return Slot.RESIDENCY; }

    @Override public String name() { return "fifo"; }

    @Override public String description() {
        return "Demand-paging eviction by migration age (seed 002 §2.3 age-based LRU): the page resident longest goes first; accesses do not refresh it.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        return new ClockResidency(context.memory());
    }
}
