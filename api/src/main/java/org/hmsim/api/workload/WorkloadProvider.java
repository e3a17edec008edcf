package org.hmsim.api.workload;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;

/**
 * A named, parameterised workload generator, registered as an OSGi service (property {@link #NAME}).
 * Study files name it: {@code workloads: [stream, bfs]} or {@code - {name: bfs, nodes: 65536}}.
 */
public interface WorkloadProvider {
    String NAME = "hmsim.workload";

    String name();

    /** What it models, honestly: which benchmark, which pattern, what is left out. */
    String description();

    List<ParamSpec> parameters();

    Workload create(Params params, long seed);
}
