package org.hmsim.memsched;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code cpu-first} dram-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=dram-scheduler", PolicyProvider.NAME + "=cpu-first", PolicyProvider.VERSION + "=1.0.0"})
public final class CpuFirstProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.DRAM_SCHEDULER; }

    @Override public String name() { return "cpu-first"; }

    @Override public String description() {
        return "FR-FCFS with the CPU side's requests first (a static source priority; Ausavarungnirun et al., ISCA 2012, §2.3):"
                + " its cores' few misses are latency-critical while the GPU hides latency behind warps.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.choice("priority", "strict", List.of("strict", "after-row-hits"),
                "strict = a CPU request goes before any GPU request, closing a row the GPU still hits; after-row-hits = ready"
                        + " row hits first (of either side), then CPU before GPU"));
    }

    /** Without a CPU side every request is a GPU's: the ranks are FR-FCFS's. */
    @Override public String note(Params params, org.hmsim.api.policy.RunFacts run) {
        return run.cpuSide() ? null : "the machine has no cpu: section, so every request is a GPU's and the ranks are FR-FCFS's: these runs repeat fr-fcfs";
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new CpuFirst(params.getString("priority").equals("strict"));
    }
}
