package org.hmsim.sahc;

import org.hmsim.api.policy.PolicyProvider;
import org.osgi.service.component.annotations.Component;

/** {@code sahc}: see {@link SahcPolicy}. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=coherence", PolicyProvider.NAME + "=sahc", PolicyProvider.VERSION + "=1.0.0"})
public final class SahcProvider extends SahcProviders {
    public SahcProvider() { super(SahcPolicy.Variant.BASIC); }

    @Override public String name() { return "sahc"; }

    @Override public String description() {
        return "Seed 001 SAHC with the un-optimised OS policy (Fig. 5a): per-page owner CPU_ONLY/GPU_ONLY set at first touch, a wrong-owner access faults (fault_cycles) and flips the owner, the promote_after-th fault makes the page CPU_GPU; only CPU_GPU pages use the block directory, other misses skip it. Not evaluated in the seed.";
    }
}
