package org.hmsim.sahc;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.SwapControl;
import org.hmsim.platform.machine.SwapHost;
import org.hmsim.platform.machine.SwapRecord;
import org.hmsim.platform.machine.SwapTarget;

/** {@link Apu}'s policies, and live swaps of the coherence slot among this bundle's policies (as the kernel resolves them). */
final class SwapApu implements PolicySource, SwapHost {
    private final Apu base;
    volatile List<SwapRecord> records = List.of();

    SwapApu(String coherence) { this.base = new Apu(coherence); }

    @Override public Policy create(Slot slot, PolicyContext context) { return base.create(slot, context); }

    @Override public String describe(Slot slot) { return base.describe(slot); }

    @Override public String bundle(Slot slot) { return "classpath"; }

    @Override public void ended(SwapControl c) { records = c.records(); }

    @Override
    public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
        if (slot != Slot.COHERENCE) throw new IllegalArgumentException("this test source swaps the coherence slot only");
        for (PolicyProvider p : Apu.MINE) {
            if (!p.name().equals(policy)) continue;
            Params v = Params.validate(p.parameters(), params);
            return new SwapTarget(p.name() + "@" + p.version(), "classpath", "", ctx -> p.create(ctx, v));
        }
        throw new IllegalArgumentException("no coherence policy " + policy);
    }
}
