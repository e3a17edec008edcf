package org.hmsim.baseline.dram;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code fr-fcfs} dram-scheduler policy, the default. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=dram-scheduler", PolicyProvider.NAME + "=fr-fcfs", PolicyProvider.VERSION + "=1.0.0"})
public final class FrFcfsProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.DRAM_SCHEDULER; }

    @Override public String name() { return "fr-fcfs"; }

    @Override public String description() {
        return "FR-FCFS (Rixner et al., ISCA 2000): ready row hits first, oldest first; then the oldest request's ACT or PRE;"
                + " a row is not closed while a queued request hits it (GPGPU-Sim's and Ramulator's default).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new FrFcfs(); }
}
