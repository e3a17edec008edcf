package org.hmsim.example.plugin;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * Offers the {@code first-fit} placement policy. The service properties repeat slot, name and version
 * so that the kernel can list the policy without loading it.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=" + FirstFitProvider.NAME,
        PolicyProvider.VERSION + "=1.0.0"})
public final class FirstFitProvider implements PolicyProvider {
    static final String NAME = "first-fit";
    static final String FAST_FRACTION = "fast_fraction";

    private static final List<ParamSpec> PARAMETERS = List.of(
            ParamSpec.real(FAST_FRACTION, 0.9, 0.0, 1.0,
                    "share of each pool's capacity to fill before the next-fastest pool is used"));

    @Override
    public Slot slot() {
        return Slot.PLACEMENT;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "First fit by bandwidth: fill the pool with the highest peak bandwidth up to fast_fraction of"
                + " its capacity, then the next (a greedy BO-first baseline, cf. seed 000 §4.2).";
    }

    @Override
    public List<ParamSpec> parameters() {
        return PARAMETERS;
    }

    @Override
    public Policy create(PolicyContext context, Params params) {
        return new FirstFitPlacement(context.machine().pools(), context.memory(), params.getDouble(FAST_FRACTION),
                context.stats());
    }
}
