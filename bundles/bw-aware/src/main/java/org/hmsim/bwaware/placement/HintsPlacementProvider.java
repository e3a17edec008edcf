package org.hmsim.bwaware.placement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code hints} placement: BO/CO/BW allocation hints, from the workload or from GetAllocation on profiled hotness. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=placement", PolicyProvider.NAME + "=hints", PolicyProvider.VERSION + "=1.0.0"})
public final class HintsPlacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.PLACEMENT; }

    @Override public String name() { return "hints"; }

    @Override public String description() {
        return "Annotated placement (seed 000 §2.4, Ch. 4.4): allocation hints BO/CO/BW (none = BW-AWARE); hints missing from the "
                + "workload come from GetAllocation(size[], hotness[]) on per-allocation hotness, profiled or given.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.choice("source", "profile", List.of("profile", "given", "workload"),
                        "where hints for allocations without one come from: profile = GetAllocation on a profiling pass's DRAM accesses per "
                                + "allocation (same data set; post-cache counts, the oracle's profile summed per allocation: the thesis's "
                                + "instrumented profiler counts load/store instructions per allocation, §4.4.1, which the platform's pass does not "
                                + "provide); given = GetAllocation on the 'hotness' parameter (e.g. trained on another data set, "
                                + "Fig. 4.12); workload = only the workload's own hints, the rest BW-AWARE"),
                ParamSpec.string("hotness", "",
                        "relative hotness per allocation for source = given: 'graph_mask=3,cost=2,graph_edges=1' (unnamed allocations: 0, i.e. CO)"),
                ParamSpec.choice("rank_by", "density", List.of("density", "total"),
                        "GetAllocation ranking (summary §7.6, unspecified in the thesis): density = accesses per byte (size and hotness both "
                                + "matter, §4.4: 'we need to know both the relative hotness and the size'), total = accesses"),
                ParamSpec.choice("fit", "spill", List.of("spill", "greedy", "prefix"),
                        "a structure that does not fit in the remaining BO capacity (§7.6): spill = give it BO too and stop: it is the one that "
                                + "'exhausts the BO capacity' (§4.4.3), its remainder spills to CO as a full pool's hint falls back, so no BO frame "
                                + "stays idle; greedy = skip it and try colder, smaller ones; prefix = stop (the literal 'how many of [1:N] fit'; "
                                + "greedy and prefix can leave BO frames unused, which makes hints worse than BW-AWARE at 10 % capacity)"),
                org.hmsim.bwaware.placement.Params.BANDWIDTHS, org.hmsim.bwaware.placement.Params.TOUCH_ORDER);
    }

    @Override public void check(Params params) {
        Bandwidths.parse(params.getString("bandwidths"));
        params.refuseUnless("hotness", params.getString("source").equals("given"), "is read only with source: given (this source is "
                + params.getString("source") + ")");
        if (HintsPlacement.parse(params.getString("hotness")).isEmpty() && params.getString("source").equals("given"))
            throw new IllegalArgumentException("parameter 'hotness' must name allocations (name=value,...) when source = given");
    }

    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requirePoolChoice(name());
        Bandwidths.check(params.getString("bandwidths"), run.pools());
        if (run.knowsAllocations()) checkGivenNames(params, run.allocations());
    }

    /** A given hotness names the workload's allocations (only where it is used: source profile or workload ignores it). */
    private static void checkGivenNames(Params params, List<String> allocations) {
        if (params.getString("source").equals("given"))
            HintsPlacement.checkNames(HintsPlacement.parse(params.getString("hotness")).keySet(), allocations);
    }

    @Override public Policy create(PolicyContext context, Params params) {
        // swapped into a live run (sim:swap), whose allocations exist: a misspelt name is refused here, as a refused swap,
        // instead of failing the run at the next page it places (found by a review)
        var allocations = context.memory().allocations();
        if (!allocations.isEmpty()) checkGivenNames(params, allocations.stream().map(org.hmsim.api.os.Allocation::name).toList());
        return new HintsPlacement(context.machine(), context.memory(), params.getString("source"), params.getString("hotness"),
                params.getString("rank_by"), params.getString("fit"), params.getString("bandwidths"), context.random("placement"), context.stats())
                .hostOrder(params.getString("touch_order").equals("host") ? new HostTouchOrder(context.memory()) : null);
    }
}
