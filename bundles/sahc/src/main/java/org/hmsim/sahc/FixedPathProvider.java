package org.hmsim.sahc;

import java.util.List;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;

/** A coherence policy that sends every CPU and GPU last-level miss down one path. */
abstract class FixedPathProvider implements PolicyProvider {
    private final int path;

    FixedPathProvider(int path) { this.path = path; }

    /** The miss path decides between the CPU-GPU directory and direct access (seed 001): there is none without a CPU side. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) { run.requireCpuSide("coherence " + name()); }

    @Override public Slot slot() { return Slot.COHERENCE; }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        int p = path;
        return new CoherencePolicy() {
            @Override public int missPath(int agent, long page) { return p; }
        };
    }
}
