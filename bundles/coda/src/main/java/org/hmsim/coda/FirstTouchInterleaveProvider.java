package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code first-touch} interleave: CGP-only + ideal first-touch allocation (an oracle). */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=interleave", PolicyProvider.NAME + "=first-touch", PolicyProvider.VERSION + "=1.0.0"})
public final class FirstTouchInterleaveProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.INTERLEAVE; }

    @Override public String name() { return "first-touch"; }

    @Override public String description() {
        return "CGP-only + FTA (seed 004 §6.1, an ideal oracle): each page whole in the memory of the first GPU that touches it, "
                + "bound for free at that touch; pages the host maps first go round-robin.";
    }

    @Override public List<ParamSpec> parameters() { return InterleaveProviders.channelOnly(); }

    @Override public void check(Params params) { InterleaveProviders.channel(params); }

    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        InterleaveProviders.checkChannel(params, run);
        org.hmsim.api.policy.PolicyProvider.super.check(params, run);
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new FirstTouchInterleave(InterleaveProviders.channel(params), GpuGeometry.memoriesOfGpu(context.machine()));
    }
}
