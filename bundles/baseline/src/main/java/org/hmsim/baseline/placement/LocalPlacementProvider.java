package org.hmsim.baseline.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code local} placement: first touch goes to the toucher's own pool. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=local", PolicyProvider.VERSION + "=1.0.0"})
public final class LocalPlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "local"; }

    @Override public String description() {
        return "LOCAL (seed 000 §2.1, 0C-100B): every page in the pool of the node that touched it first (GPU-local memory; the CPU's pool for CPU touches).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new LocalPlacement(context.machine()); }
}
