package org.hmsim.platform.workloads;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;

/** Base of the built-in workload models: a name, an honest description and documented parameters. */
public abstract class BuiltinProvider implements WorkloadProvider {
    private final String name;
    private final String description;
    private final List<ParamSpec> params;

    protected BuiltinProvider(String name, String description, List<ParamSpec> params) {
        this.name = name;
        this.description = description;
        this.params = List.copyOf(params);
    }

    @Override public final String name() { return name; }
    @Override public final String description() { return description; }
    @Override public final List<ParamSpec> parameters() { return params; }

    /** Creates with every parameter at its default. */
    public final Workload createDefault(long seed) { return create(Params.validate(params, java.util.Map.of()), seed); }

    @Override public String toString() { return name; }
}
