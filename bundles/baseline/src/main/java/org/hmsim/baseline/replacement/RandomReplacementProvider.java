package org.hmsim.baseline.replacement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code random} replacement policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=replacement", PolicyProvider.NAME + "=random", PolicyProvider.VERSION + "=1.0.0"})
public final class RandomReplacementProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.REPLACEMENT; }

    @Override public String name() { return "random"; }

    @Override public String description() {
        return "Uniformly random victim among the set's valid, unlocked ways, from a seeded stream per cache.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new RandomReplacement(context::random); }
}
