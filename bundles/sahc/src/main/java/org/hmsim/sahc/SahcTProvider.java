package org.hmsim.sahc;

import org.hmsim.api.policy.PolicyProvider;
import org.osgi.service.component.annotations.Component;

/** {@code sahc-t}: see {@link SahcPolicy}. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=coherence", PolicyProvider.NAME + "=sahc-t", PolicyProvider.VERSION + "=1.0.0"})
public final class SahcTProvider extends SahcProviders {
    public SahcTProvider() { super(SahcPolicy.Variant.TRANSPARENT); }

    @Override public String name() { return "sahc-t"; }

    @Override public String description() {
        return "Seed 001 SAHC-T: SAHC plus CPU_INIT pages before the first kernel launch, a CPU cache flush at that launch, and the page walker handing CPU_INIT pages to their first accessor without a fault.";
    }
}
