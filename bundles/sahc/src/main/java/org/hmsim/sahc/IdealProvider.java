package org.hmsim.sahc;

import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.PolicyProvider;
import org.osgi.service.component.annotations.Component;

/** {@code ideal}: the same protocol with zero-latency coherence actions (the seed's normalisation). */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=coherence", PolicyProvider.NAME + "=ideal", PolicyProvider.VERSION + "=1.0.0"})
public final class IdealProvider extends FixedPathProvider {
    public IdealProvider() { super(CoherencePolicy.PATH_IDEAL); }

    @Override public String name() { return "ideal"; }

    @Override public String description() {
        return "Seed 001 ideal coherence: the directory's state changes, probes and invalidations happen at once, with no bank, "
                + "MSHR or probe cost; memory latency still applies (the upper bound every figure of the seed is normalised to).";
    }
}
