package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code coarse} interleave: CGP-only, whole pages round-robin over the GPU memories. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=interleave", PolicyProvider.NAME + "=coarse", PolicyProvider.VERSION + "=1.0.0"})
public final class CoarseInterleaveProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.INTERLEAVE; }

    @Override public String name() { return "coarse"; }

    @Override public String description() {
        return "CGP-only (seed 004 §6): every page whole in one GPU memory, consecutive pages on consecutive GPUs (vpn mod N); "
                + "in a multiprogrammed mix (§6.5) a program's pages whole in its GPU's memory; channels within a memory interleaved at 'granularity'. "
                + "On a one-memory machine only the channel mapping applies.";
    }

    @Override public List<ParamSpec> parameters() { return InterleaveProviders.channelOnly(); }

    @Override public void check(Params params) { InterleaveProviders.channel(params); }

    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        InterleaveProviders.checkChannel(params, run);
        org.hmsim.api.policy.PolicyProvider.super.check(params, run);
    }

    @Override public Policy create(PolicyContext context, Params params) { return new CoarseInterleave(InterleaveProviders.channel(params), context.memory(), GpuGeometry.memoriesOfGpu(context.machine()));
    }
}
