package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.RunFacts;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code affinity} cta-scheduler: CODA's Eq. 1. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=cta-scheduler", PolicyProvider.NAME + "=affinity", PolicyProvider.VERSION + "=1.0.0"})
public final class AffinityCtaProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.CTA_SCHEDULER; }

    @Override public String name() { return "affinity"; }

    @Override public String description() {
        return "CODA affinity scheduling (seed 004 §4.3, Eq. 1): block b runs on GPU (b / N_blocks_per_GPU) mod N_GPUs, "
                + "on the next SM of that GPU with room; no work stealing.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(InterleaveProviders.blocksPerGpu()); }

    /** A mix's program has one GPU: blocks bound to the others would wait for ever. */
    @Override public void check(Params params, RunFacts run) { run.refuseMix("affinity", "binds each block to a GPU by Eq. 1 over every GPU of the machine"); }

    /** One GPU: every block is bound to GPU 0 and takes the next SM with room, as round-robin places it. */
    @Override public String note(Params params, RunFacts run) {
        return run.gpus() == 1 ? "on one GPU every block goes to GPU 0's next SM with room, as round-robin places it: these runs repeat round-robin's" : null;
    }

    /** N_bpg must be the same for placement (Eq. 1's chunks) and the affinity scheduler (§4.3), or blocks run away from their data. */
    @Override public java.util.Set<String> sharedParameters() { return java.util.Set.of("blocks_per_gpu"); }

    @Override public Object sharedValue(String parameter, Params params, org.hmsim.api.policy.RunFacts run) {
        return parameter.equals("blocks_per_gpu") ? InterleaveProviders.blocksPerGpuOn(params, run) : params.asMap().get(parameter);
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new AffinityCta(false, context.machine().gpuCount(), new GpuGeometry.LazyBlocks(context.machine(), params.getInt("blocks_per_gpu")));
    }
}
