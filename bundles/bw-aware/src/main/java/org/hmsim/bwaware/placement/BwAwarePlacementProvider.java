package org.hmsim.bwaware.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code bw-aware} placement: pages spread over the pools in proportion to their bandwidths. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=bw-aware", PolicyProvider.VERSION + "=1.0.0"})
public final class BwAwarePlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "bw-aware"; }

    @Override public String description() {
        return "BW-AWARE (seed 000 §2.2, Ch. 4): each new page goes to pool i with probability b_i/Σb (200/80 GB/s: 29C-71B), "
                + "drawn per page; a full pool spills to another (the OS has no choice).";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(org.hmsim.bwaware.placement.Params.BANDWIDTHS, org.hmsim.bwaware.placement.Params.PERCENT_STEP,
                org.hmsim.bwaware.placement.Params.TOUCH_ORDER);
    }

    @Override public void check(Params params) { Bandwidths.parse(params.getString("bandwidths")); }

    @Override public void check(Params params, List<org.hmsim.api.machine.PoolInfo> pools) { Bandwidths.check(params.getString("bandwidths"), pools); }

    /** Where the interleave slot places every page (every pool a GPU memory, seed 004) this placement would act on nothing. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requirePoolChoice(name());
        check(params, run.pools());
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new BwAwarePlacement(context.machine(), params.getString("bandwidths"), params.getInt("percent_step"), context.random("placement"),
                params.getString("touch_order").equals("host") ? new HostTouchOrder(context.memory()) : null);
    }
}
