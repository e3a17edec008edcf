package org.hmsim.baseline.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code ratio} placement: a fixed percentage of pages in the fastest pool, drawn per page. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=ratio", PolicyProvider.VERSION + "=1.0.0"})
public final class RatioPlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "ratio"; }

    @Override public String description() {
        return "Static xC-yB split (seed 000 §2.1), drawn per page as in §2.2: r uniform in [0,99], r >= 100-y -> fastest pool, else the others; the OS spills when a pool is full.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.integer("fast_percent", 70, 0, 100,
                "y: percentage of pages placed in the fastest pool by bandwidth (70 = the thesis's 30C-70B)"));
    }

    /** Where the interleave slot places every page (every pool a GPU memory, seed 004) this placement would act on nothing. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requirePoolChoice(name());
        check(params, run.pools());
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new RatioPlacement(context.machine(), params.getInt("fast_percent"), context.random("placement"));
    }
}
