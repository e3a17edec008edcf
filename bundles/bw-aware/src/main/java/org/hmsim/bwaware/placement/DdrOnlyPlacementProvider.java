package org.hmsim.bwaware.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code ddr-only} placement: the Ch. 5 CC-NUMA baseline, every page in CPU memory. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=ddr-only", PolicyProvider.VERSION + "=1.0.0"})
public final class DdrOnlyPlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "ddr-only"; }

    @Override public String description() {
        return "CC-NUMA DDR-only (seed 000 §2.1, Ch. 5 baseline): every page in the CPU-attached pool, reached over the coherent link.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.string("pool", "", "the pool to place every page in (name or index); empty = the CPU's pool"));
    }

    @Override public void check(Params params, List<org.hmsim.api.machine.PoolInfo> pools) {
        String pool = params.getString("pool");
        if (!pool.isBlank()) named("pool", () -> Bandwidths.poolIndex(pool, pools));
    }

    /** A pool look-up's failure said as the parameter's. */
    static void named(String param, Runnable lookUp) {
        try {
            lookUp.run();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parameter '" + param + "': " + e.getMessage());
        }
    }

    /** Where the interleave slot places every page (every pool a GPU memory, seed 004) this placement would act on nothing. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requirePoolChoice(name());
        check(params, run.pools());
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new DdrOnlyPlacement(context.machine(), params.getString("pool"));
    }
}
