package org.hmsim.memsched;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code bliss} dram-scheduler policy. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=dram-scheduler", PolicyProvider.NAME + "=bliss", PolicyProvider.VERSION + "=1.0.0"})
public final class BlissProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.DRAM_SCHEDULER; }

    @Override public String name() { return "bliss"; }

    @Override public String description() {
        return "BLISS (Subramanian et al., ICCD 2014): a source (the CPU side, or a GPU) served more than 'threshold' times in a"
                + " row by a channel is blacklisted until the next clearing; requests of sources not blacklisted first, then row"
                + " hits, then the oldest.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.integer("threshold", 4, 1, 1 << 20, "requests served in a row from one source before it is blacklisted (the paper's 4)"),
                ParamSpec.time("clearing_interval", 10_000_000L, 1_000L, 1_000_000_000_000L,
                        "period at which every channel's blacklist clears (the paper's 10,000 cycles, taken at 1 GHz)"));
    }

    /** One source (one GPU, no CPU side): blacklisting lowers every request alike, and the ranks are FR-FCFS's. */
    @Override public String note(Params params, org.hmsim.api.policy.RunFacts run) {
        return run.cpuSide() || run.gpus() > 1 ? null
                : "one source (one GPU, no cpu: section): a blacklist lowers every request alike, so the ranks are FR-FCFS's: these runs repeat fr-fcfs";
    }

    @Override public Policy create(PolicyContext context, Params params) {
        Bliss b = new Bliss(params.getInt("threshold"), params.getLong("clearing_interval"), context.machine().engine(), context.machine().gpuCount());
        context.stats().counter("blacklistings", "times a channel blacklisted a source (summed over channels)", b::blacklistings);
        return b;
    }
}
