package org.hmsim.baseline.none;

import java.util.List;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code none} throttling policy: every SM may issue at all times. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=throttling", PolicyProvider.NAME + "=none", PolicyProvider.VERSION + "=1.0.0"})
public final class NoThrottling implements PolicyProvider {
    @Override public Slot slot() { return Slot.THROTTLING; }

    @Override public String name() { return "none"; }

    @Override public String description() {
        return "No throttling: every SM issues at all times (the baseline).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        // Every hook of the interface defaults to doing nothing: the instance only has to exist.
        return new ThrottlingPolicy() {};
    }
}
