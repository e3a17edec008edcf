package org.hmsim.baseline.interleave;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code fine} interleave: consecutive blocks of {@code granularity} bytes on consecutive channels. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=interleave", PolicyProvider.NAME + "=fine", PolicyProvider.VERSION + "=1.0.0"})
public final class FineInterleaveProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.INTERLEAVE; }

    @Override public String name() { return "fine"; }

    @Override public String description() {
        return "Fine-grained channel interleaving: channel = (paddr / granularity) mod channels (seed 000 §6 interleaves lines over a pool's channels; the seed does not give the mapping).";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.size("granularity", 256, 32, 1L << 30,
                "bytes mapped to one channel before moving to the next; a power of two >= 32"));
    }

    @Override public void check(Params params) { params.getPowerOfTwo("granularity", 32); }

    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.refuseUnderLine("granularity", params.getPowerOfTwo("granularity", 32), "channels");
        PolicyProvider.super.check(params, run);
    }

    @Override public Policy create(PolicyContext context, Params params) { return new FineInterleave(params.getPowerOfTwo("granularity", 32)); }
}
