package org.hmsim.baseline.cache;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code cache-all} cacheability policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=cacheability", PolicyProvider.NAME + "=cache-all", PolicyProvider.VERSION + "=1.0.0"})
public final class CacheAllProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.CACHEABILITY; }

    @Override public String name() { return "cache-all"; }

    @Override public String description() {
        return "Every GPU access may allocate in L1 and L2, whatever its home pool (the hardware-coherent baseline of seed 000 §2.1).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new CacheAll(); }
}
