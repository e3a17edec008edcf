package org.hmsim.sahc;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;

/** The common part of the three SAHC providers: parameters and creation. */
abstract class SahcProviders implements PolicyProvider {
    private final SahcPolicy.Variant variant;

    SahcProviders(SahcPolicy.Variant variant) { this.variant = variant; }

    /** The miss path decides between the CPU-GPU directory and direct access (seed 001): there is none without a CPU side. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) { run.requireCpuSide("coherence " + name()); }

    @Override public Slot slot() { return Slot.COHERENCE; }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.longValue("fault_cycles", 5000, 0, 100_000_000, "cost of a page coherence-permission fault, CPU cycles (seed 001 Table 2: 5000 average)"),
                ParamSpec.integer("promote_after", 3, 1, 15, "faults after which a page becomes CPU_GPU (seed 001 §4.1: 3, a 2-bit saturating PTE counter)"));
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new SahcPolicy(variant, params.getLong("fault_cycles"), params.getInt("promote_after"), context.stats());
    }
}
