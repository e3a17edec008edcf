package org.hmsim.platform.machine;

import org.hmsim.api.workload.Workload;

/**
 * Everything one simulation needs: the machine, the workload instance, the policies, the seed, the
 * statistics epoch (time-series sampling period) and a simulated-time limit (0 = none).
 */
public record RunSpec(String runId, MachineConfig machine, Workload workload, PolicySource policies,
                      long seed, long epochPs, long maxSimTimePs) {}
