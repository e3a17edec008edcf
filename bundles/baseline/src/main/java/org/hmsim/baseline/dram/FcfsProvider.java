package org.hmsim.baseline.dram;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code fcfs} dram-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=dram-scheduler", PolicyProvider.NAME + "=fcfs", PolicyProvider.VERSION + "=1.0.0"})
public final class FcfsProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.DRAM_SCHEDULER; }

    @Override public String name() { return "fcfs"; }

    @Override public String description() {
        return "FCFS: column commands strictly in arrival order (ACT and PRE still prepare each bank for its oldest request):"
                + " no row-hit reordering, the baseline FR-FCFS is measured against.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new Fcfs(); }
}
