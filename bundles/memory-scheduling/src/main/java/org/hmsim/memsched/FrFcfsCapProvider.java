package org.hmsim.memsched;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code fr-fcfs-cap} dram-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=dram-scheduler", PolicyProvider.NAME + "=fr-fcfs-cap", PolicyProvider.VERSION + "=1.0.0"})
public final class FrFcfsCapProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.DRAM_SCHEDULER; }

    @Override public String name() { return "fr-fcfs-cap"; }

    @Override public String description() {
        return "FR-FCFS+Cap (Mutlu and Moscibroda, MICRO 2007): row hits go first only until 'cap' column commands have used"
                + " the bank's open row; then the bank's oldest request goes (closing the row if it misses).";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.integer("cap", 16, 1, 1 << 16,
                "column commands a bank's open row may serve before its hits lose their priority (16: Ramulator's default)"));
    }

    @Override public Policy create(PolicyContext context, Params params) { return new FrFcfsCap(params.getInt("cap")); }
}
