package org.hmsim.baseline.cache;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code conventional} L2 miss path. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=l2-miss-path", PolicyProvider.NAME + "=conventional", PolicyProvider.VERSION + "=1.0.0"})
public final class ConventionalMissPathProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.L2_MISS_PATH; }

    @Override public String name() { return "conventional"; }

    @Override public String description() {
        return "Conventional L2 miss handling (seed 003 §2): victim locked at miss time, fill into its way, a fully locked set stalls further misses.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new ConventionalMissPath(); }
}
