package org.hmsim.baseline.scheduling;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code lrr} warp-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=warp-scheduler", PolicyProvider.NAME + "=lrr", PolicyProvider.VERSION + "=1.0.0"})
public final class LrrProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.WARP_SCHEDULER; }

    @Override public String name() { return "lrr"; }

    @Override public String description() {
        return "Loose round-robin: the next ready warp after the last one issued, wrapping around.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new Lrr(); }
}
