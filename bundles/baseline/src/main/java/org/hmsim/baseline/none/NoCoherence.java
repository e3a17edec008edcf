package org.hmsim.baseline.none;

import java.util.List;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code none} coherence policy: no coherence actions, no added latency on last-level misses. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=coherence", PolicyProvider.NAME + "=none", PolicyProvider.VERSION + "=1.0.0"})
public final class NoCoherence implements PolicyProvider {
    @Override public Slot slot() { return Slot.COHERENCE; }

    @Override public String name() { return "none"; }

    @Override public String description() {
        return "No coherence: no directory, no coherence traffic, no added latency on last-level misses (the baseline GPU-only machine).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        // Every hook of the interface defaults to doing nothing: the instance only has to exist.
        return new CoherencePolicy() {};
    }
}
