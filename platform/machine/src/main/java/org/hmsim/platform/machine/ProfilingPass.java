package org.hmsim.platform.machine;

import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.ProfiledPolicy;

/**
 * The profiling pass of two-pass policies (seed 000 §2.3 oracle placement, §2.4 profiled hints): when a
 * policy of the measured machine implements {@link ProfiledPolicy} and wants a profile, the same
 * machine description, workload, seed and policy source run once more, first, on a machine that counts
 * DRAM accesses per page; the resulting {@link PageProfile} goes to the policy before the measured run.
 * The workload's kernels are built twice from the same workload instance ({@code kernels(bases)} is
 * called once per pass; built-in and file workloads build fresh warp programs on each call). Runs
 * without such a policy do nothing here.
 *
 * <p>A policy swapped in mid-run gets the same profile ({@link #handTo}): the pass runs then if no policy at the start
 * wanted it (a review found a swapped-in oracle without one, silently placing as bw-aware under the oracle's name).
 * The pass is the run's own, with the policies it started with, so it is the same whenever it is computed.
 */
final class ProfilingPass {
    private final Machine measured;
    private final RunSpec spec;
    private final java.util.function.BooleanSupplier aborted;
    private PageProfile profile;

    /** {@code aborted}: the measured run's abort, which ends the pass too (it is a whole simulation of its own). */
    ProfilingPass(Machine measured, RunSpec spec, java.util.function.BooleanSupplier aborted) {
        this.measured = measured;
        this.spec = spec;
        this.aborted = aborted;
    }

    /** Hands the profile to each policy of the measured machine that wants one, before its first kernel. */
    void prepare() {
        for (Policy p : measured.policies) handTo(p);
    }

    /** Gives {@code p} the run's profile if it wants one, running the pass the first time one is wanted. */
    void handTo(Policy p) {
        if (p instanceof ProfiledPolicy pp && pp.wantsProfile()) pp.useProfile(profile());
    }

    private PageProfile profile() {
        if (profile != null) return profile;
        Machine pass = new Machine(spec.machine(), spec.policies(), spec.seed(), spec.runId() + "-profile", true);
        try {
            Simulation.run(pass, spec, null, aborted);
        } finally {
            for (Policy p : pass.policies) p.close();
        }
        profile = PageProfile.of(pass.os, pass.pageCounter);
        return profile;
    }
}
