package org.hmsim.baseline.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code interleave} placement: pages round-robin over the pools. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=interleave", PolicyProvider.VERSION + "=1.0.0"})
public final class InterleavePlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "interleave"; }

    @Override public String description() {
        return "INTERLEAVE (seed 000 §2.1, 50C-50B with two pools): pages round-robin over the pools by virtual page number.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.string("pools", "",
                "comma-separated pool names or indices to interleave over, in order; empty = every pool in index order"));
    }

    @Override public void check(Params params, List<org.hmsim.api.machine.PoolInfo> pools) {
        try {
            Pools.select(params.getString("pools"), pools);
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith("parameter 'pools'") ? e : new IllegalArgumentException("parameter 'pools': " + e.getMessage());
        }
    }

    /** Where the interleave slot places every page (every pool a GPU memory, seed 004) this placement would act on nothing. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requirePoolChoice(name());
        check(params, run.pools());
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new InterleavePlacement(context.machine(), params.getString("pools"));
    }
}
