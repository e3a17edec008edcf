package org.hmsim.sahc;

import org.hmsim.api.policy.PolicyProvider;
import org.osgi.service.component.annotations.Component;

/** {@code sahc-a}: see {@link SahcPolicy}. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=coherence", PolicyProvider.NAME + "=sahc-a", PolicyProvider.VERSION + "=1.0.0"})
public final class SahcAProvider extends SahcProviders {
    public SahcAProvider() { super(SahcPolicy.Variant.APPARENT); }

    @Override public String name() { return "sahc-a"; }

    @Override public String description() {
        return "Seed 001 SAHC-A: SAHC-T plus the gpuWorkFinish() call after the last kernel: the directory forgets the GPU's copies (the GPU L2 keeps its lines: not modelled), and CPU accesses to GPU_ONLY pages no longer fault.";
    }
}
