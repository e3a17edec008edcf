package org.hmsim.baseline.none;

import java.util.List;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code none} residency policy: no eviction victim and no prefetch beyond the faulting page. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=residency", PolicyProvider.NAME + "=none", PolicyProvider.VERSION + "=1.0.0"})
public final class NoResidency implements PolicyProvider {
    @Override public Slot slot() { return Slot.RESIDENCY; }

    @Override public String name() { return "none"; }

    @Override public String description() {
        return "No residency management: evicts nothing and prefetches nothing beyond the faulting page (the baseline).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        // Every hook of the interface defaults to doing nothing: the instance only has to exist.
        return new ResidencyPolicy() {};
    }
}
