package org.hmsim.bwaware.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code oracle} placement: hottest pages (from a profiling pass) to the fast pool up to its bandwidth share or capacity. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=oracle", PolicyProvider.VERSION + "=1.0.0"})
public final class OraclePlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "oracle"; }

    @Override public String description() {
        return "Oracle placement (seed 000 §2.3, Ch. 4.3): a profiling pass counts DRAM accesses per page; the hottest pages go "
                + "to the fastest pool until it carries its bandwidth share b_B/Σb of the traffic or is full; the rest to CPU memory.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.real("target", -1, -1, 1,
                        "traffic share to place in the fastest pool (0..1); -1 = b_B/Σb from the bandwidths (71.4 % for 200/80 GB/s, §2.3 '~70%')"),
                ParamSpec.real("capacity_fraction", 1.0, 0, 1,
                        "fraction of the fast pool's frames the oracle may fill (1 = all; the study limits capacity through the machine's pool size)"),
                ParamSpec.real("tie_band", 0.1, 0, 10,
                        "pages whose profiled counts lie within a factor 1 + tie_band of each other count as equally hot and are taken in a "
                                + "seeded random order (so equally hot pages are spread over the address space, as BW-AWARE's draw does); "
                                + "0 = exact counts, ties by address"),
                org.hmsim.bwaware.placement.Params.BANDWIDTHS);
    }

    /** As bw-aware's: a bad bandwidths string failed every run mid-study, having passed validation (a bad-input trial). */
    @Override public void check(Params params) { Bandwidths.parse(params.getString("bandwidths")); }

    @Override public void check(Params params, List<org.hmsim.api.machine.PoolInfo> pools) { Bandwidths.check(params.getString("bandwidths"), pools); }

    /** Where the interleave slot places every page (every pool a GPU memory, seed 004) this placement would act on nothing. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requirePoolChoice(name());
        run.refuseMix(name(), "ranks the pages of one program by their profiled accesses");
        check(params, run.pools());
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new OraclePlacement(context.machine(), context.memory(), params.getString("bandwidths"), params.getDouble("target"),
                params.getDouble("capacity_fraction"), params.getDouble("tie_band"), context.random("placement"), context.stats());
    }
}
