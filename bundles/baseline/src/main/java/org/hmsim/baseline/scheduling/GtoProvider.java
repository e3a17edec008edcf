package org.hmsim.baseline.scheduling;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code gto} warp-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=warp-scheduler", PolicyProvider.NAME + "=gto", PolicyProvider.VERSION + "=1.0.0"})
public final class GtoProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.WARP_SCHEDULER; }

    @Override public String name() { return "gto"; }

    @Override public String description() {
        return "Greedy-then-oldest: issue from the last warp while it is ready, else the oldest ready warp (Rogers et al. MICRO 2012; GPGPU-Sim default).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new Gto(); }
}
