package org.hmsim.baseline.replacement;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code lru} replacement policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=replacement", PolicyProvider.NAME + "=lru", PolicyProvider.VERSION + "=1.0.0"})
public final class LruProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.REPLACEMENT; }

    @Override public String name() { return "lru"; }

    @Override public String description() {
        return "Least recently used victim within the set (the baseline GPU caches of seed 000 Table 4.1 / GPGPU-Sim).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new Lru(); }
}
