package org.hmsim.platform.kernel.registry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;

/** A validated workload of a study: the entry, its full parameters, and those given explicitly. */
public record WorkloadChoice(WorkloadEntry entry, Params params, Map<String, Object> given) {

    public WorkloadChoice {
        given = Collections.unmodifiableMap(new LinkedHashMap<>(given));
    }

    /** A fresh instance for one simulation. */
    public Workload create(long seed) { return entry.provider().create(params, seed); }

    /** {@code bfs(nodes=4096)}: the name with explicitly given parameters in declaration order. */
    public String label() {
        if (given.isEmpty()) return entry.name();
        StringJoiner j = new StringJoiner(",", entry.name() + "(", ")");
        entry.parameters().forEach(p -> {
            if (given.containsKey(p.name())) j.add(p.name() + "=" + given.get(p.name()));
        });
        return j.toString();
    }
}
