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

/** The {@code contiguous} cta-scheduler: the grid in N contiguous batches, one per GPU. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=cta-scheduler", PolicyProvider.NAME + "=contiguous", PolicyProvider.VERSION + "=1.0.0"})
public final class ContiguousCtaProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.CTA_SCHEDULER; }

    @Override public String name() { return "contiguous"; }

    @Override public String description() {
        return "Static work distribution: the grid cut into N_GPUs equal contiguous batches, batch g on GPU g, "
                + "each block on the next SM of its GPU with room; no work stealing.";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    /** A mix's program has one GPU: blocks bound to the others would wait for ever. */
    @Override public void check(Params params, RunFacts run) { run.refuseMix("contiguous", "binds each block to a GPU by batches over every GPU of the machine"); }

    /** One GPU: every block is bound to GPU 0 and takes the next SM with room, as round-robin places it. */
    @Override public String note(Params params, RunFacts run) {
        return run.gpus() == 1 ? "on one GPU every block goes to GPU 0's next SM with room, as round-robin places it: these runs repeat round-robin's" : null;
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new AffinityCta(true, context.machine().gpuCount(), new GpuGeometry.LazyBlocks(context.machine(), 1));
    }
}
