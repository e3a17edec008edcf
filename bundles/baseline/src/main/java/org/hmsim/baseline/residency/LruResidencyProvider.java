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
 * {@code lru}: evict the least recently used resident page. {@code recency: tlb-miss} (the default) refreshes a page's
 * recency on every last-level TLB miss to it, the access information a driver can see (seed 002 §2.3: true LRU is too
 * costly for a driver); where the L2 TLB covers the footprint that is arrival order, as fifo. {@code every-access} is
 * the true LRU of a simulator: every line request's page ({@link org.hmsim.api.policy.ResidencyPolicy#observesReferences}).
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=residency", PolicyProvider.NAME + "=lru", PolicyProvider.VERSION + "=1.0.0"})
public final class LruResidencyProvider implements PolicyProvider {
    /** Victims are chosen only when demand-paged GPU memory is full. */
    @Override public void check(org.hmsim.api.policy.Params params, org.hmsim.api.policy.RunFacts run) { run.requireDemandPaging("residency lru"); }

    @Override public Slot slot() { return Slot.RESIDENCY; }

    @Override public String name() { return "lru"; }

    @Override public String description() {
        return "Demand-paging eviction of the least recently used page. recency: tlb-miss = from last-level TLB misses, what a driver sees (seed 002 §2.3 calls true LRU too costly); where the L2 TLB covers the footprint (the etc preset) a resident page is not walked again and lru then evicts as fifo. every-access = true LRU over every line request.";
    }

    static final String TLB_MISS = "tlb-miss", EVERY_ACCESS = "every-access";

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.choice("recency", TLB_MISS, List.of(TLB_MISS, EVERY_ACCESS),
                "what refreshes a page's recency: tlb-miss = a last-level TLB miss to it (a driver's view); every-access = every line request to it (true LRU)"));
    }

    @Override public Policy create(PolicyContext context, Params params) {
        boolean every = EVERY_ACCESS.equals(params.getString("recency"));
        return new ClockResidency(context.memory()) {
            @Override public void onPageAccessed(long vpn) { clock.touch(vpn); }

            @Override public boolean observesReferences() { return every; }

            @Override public void onPageReferenced(long vpn) { clock.touch(vpn); }
        };
    }
}
