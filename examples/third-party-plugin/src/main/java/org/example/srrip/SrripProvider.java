package org.example.srrip;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * Offers {@code srrip} for the replacement slot. The service properties repeat slot, name and version so
 * the kernel can list the policy without creating it.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=replacement", PolicyProvider.NAME + "=" + SrripProvider.NAME,
        PolicyProvider.VERSION + "=" + SrripProvider.VERSION})
public final class SrripProvider implements PolicyProvider {
    static final String NAME = "srrip";
    static final String VERSION = "1.0.0";
    static final String RRPV_BITS = "rrpv_bits";

    private static final List<ParamSpec> PARAMETERS = List.of(
            ParamSpec.integer(RRPV_BITS, 2, 1, 6,
                    "bits of the re-reference prediction value per line (Jaleel et al. ISCA 2010 §4: 2 bits suffice)"));

    @Override
    public Slot slot() { return Slot.REPLACEMENT; }

    @Override
    public String name() { return NAME; }

    @Override
    public String version() { return VERSION; }

    @Override
    public String description() {
        return "Static re-reference interval prediction (Jaleel et al., ISCA 2010 §4): fills predicted distant"
                + " (RRPV max-1), hits near (0); the victim is a line predicted distant (RRPV max), ageing the set until one is.";
    }

    @Override
    public List<ParamSpec> parameters() { return PARAMETERS; }

    @Override
    public Policy create(PolicyContext context, Params params) {
        return new SrripReplacement(params.getInt(RRPV_BITS));
    }
}
