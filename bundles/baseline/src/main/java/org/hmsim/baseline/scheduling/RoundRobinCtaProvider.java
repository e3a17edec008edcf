package org.hmsim.baseline.scheduling;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code round-robin} cta-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=cta-scheduler", PolicyProvider.NAME + "=round-robin", PolicyProvider.VERSION + "=1.0.0"})
public final class RoundRobinCtaProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.CTA_SCHEDULER; }

    @Override public String name() { return "round-robin"; }

    @Override public String description() {
        return "Each thread block goes to the next SM with room, in round-robin order (the hardware block distributor).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new RoundRobinCta(); }
}
