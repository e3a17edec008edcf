package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.List;
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
 */
final class ProfilingPass {
    private ProfilingPass() {}

    /** {@code aborted}: the measured run's abort, which ends this pass too (it is a whole simulation of its own). */
    static void prepare(Machine measured, RunSpec spec, java.util.function.BooleanSupplier aborted) {
        List<ProfiledPolicy> wanting = new ArrayList<>();
        for (Policy p : measured.policies)
            if (p instanceof ProfiledPolicy pp && pp.wantsProfile()) wanting.add(pp);
        if (wanting.isEmpty()) return;
        Machine pass = new Machine(spec.machine(), spec.policies(), spec.seed(), spec.runId() + "-profile", true);
        try {
            Simulation.run(pass, spec, null, aborted);
        } finally {
            for (Policy p : pass.policies) p.close();
        }
        PageProfile profile = PageProfile.of(pass.os, pass.pageCounter);
        for (ProfiledPolicy pp : wanting) pp.useProfile(profile);
    }
}
