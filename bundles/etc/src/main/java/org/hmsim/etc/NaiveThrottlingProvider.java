package org.hmsim.etc;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.RunFacts;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * Throttling {@code nt}: the naive throttling ETC's MT is compared against (seed 002 §6.2, "NT" in Figs 13–14):
 * half the SMs statically throttled from the beginning of execution, never adjusted. The paper reports NT
 * +57.7 % over BL at 75 % of the footprint, −10.5 % at 50 %, and ahead of MT on BICG and GESUMMV at 75 % (MT's
 * adjustment latency).
 *
 * <p>Where the paper is silent, NT keeps MT's rules so that the two differ only in adapting: it starts when MT
 * would (at the first far fault with {@code mode: on}, its default, at the classifier's irregular decision with
 * {@code auto}); it is always work-conserving, as MT is by default (a throttled SM holding the only thread blocks
 * left is released: thread blocks are dispatched to throttled SMs too, and without epochs nothing else would ever
 * release them); and since it is static, the SMs so released are throttled again at the next kernel launch.
 *
 * <p>Swapped in live for a started MT, it throttles its own {@code initial_throttle} of the SMs at the swap and holds
 * them (it kept MT's throttled set until 1.1.0); from an NT of the same fraction it carries on (see {@code Mt.importState}).
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=throttling", PolicyProvider.NAME + "=nt", PolicyProvider.VERSION + "=1.1.0"})
public final class NaiveThrottlingProvider implements PolicyProvider {
    /** NT is a comparison point of demand-paged runs, as MT is. */
    @Override public void check(Params params, RunFacts run) { run.requireDemandPaging("throttling nt"); }

    @Override public Slot slot() { return Slot.THROTTLING; }

    @Override public String name() { return "nt"; }

    /** 1.1.0: swapped in for MT, it applies its own static throttle instead of keeping MT's throttled set. */
    @Override public String version() { return "1.1.0"; }

    @Override public String description() {
        return "Naive throttling (seed 002 §6.2, NT in Figs 13-14): half the SMs throttled statically from the start of execution, no adjustment; MT's comparison point.";
    }

    @Override public List<ParamSpec> parameters() {
        List<ParamSpec> p = new ArrayList<>();
        p.add(Mode.param("MT (NT in its place)", "on")); // a comparison point: on unless asked to stand in for MT
        p.add(ParamSpec.real("initial_throttle", 0.5, 0, 1, "fraction of SMs throttled for the whole run (seed 002 §6.2: half)"));
        p.addAll(MemoryAwareThrottlingProvider.sharedParams("NT"));
        return p;
    }

    @Override public Policy create(PolicyContext ctx, Params params) { return new MemoryAwareThrottlingProvider.Mt(ctx, params, false); }
}
