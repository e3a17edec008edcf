package org.hmsim.platform.kernel.study;

import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.ResolvedPolicies;
import org.hmsim.platform.kernel.registry.WorkloadChoice;

/**
 * One run of a study, fully validated: every value a simulation needs except the instances, which are
 * created on the run's own thread.
 *
 * @param id zero-padded position in run order ({@code 0003}): the folder under {@code runs/}
 * @param label human-readable: workload and the swept values ({@code stream placement=ratio seed=2})
 * @param sweepValues the value of each swept parameter that has a runs.csv column, by column
 */
public record PlannedRun(String id, int index, String label, MachineVariant machine, WorkloadChoice workload,
                         Map<Slot, PolicyChoice> policies, Map<String, String> sweepValues, long seed) {

    public ResolvedPolicies policySource() { return new ResolvedPolicies(policies); }
}
