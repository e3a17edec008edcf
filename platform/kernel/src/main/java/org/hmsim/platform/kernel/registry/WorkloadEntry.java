package org.hmsim.platform.kernel.registry;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.workload.WorkloadProvider;

/**
 * One available workload.
 *
 * @param origin {@code builtin}, a bundle ({@code symbolic-name version}), or the workload file's path
 */
public record WorkloadEntry(String name, String origin, String description, List<ParamSpec> parameters,
                            WorkloadProvider provider) {

    static WorkloadEntry of(WorkloadProvider p, String origin) {
        return new WorkloadEntry(p.name(), origin, p.description(), List.copyOf(p.parameters()), p);
    }
}
