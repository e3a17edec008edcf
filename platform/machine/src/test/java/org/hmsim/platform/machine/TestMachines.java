package org.hmsim.platform.machine;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;

import org.hmsim.platform.workloads.BuiltinWorkloads;

/** Machines and workloads for tests: the shipped presets with overrides, built-in workloads. */
final class TestMachines {
    private TestMachines() {}

    static Path examples() { return Presets.examples(); }

    /** {@code preset} with {@code overrides} ("gpu.sms", 4, "pools.0.bandwidth", "50GB/s", ...). */
    static MachineConfig machine(String preset, Object... overrides) { return Presets.machine(preset, overrides); }

    static Workload workload(String name, long seed, Object... params) {
        WorkloadProvider p = BuiltinWorkloads.byName(name);
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        return p.create(Params.validate(p.parameters(), given), seed);
    }

    static RunResult run(MachineConfig m, Workload w, PolicySource policies) {
        return Simulation.run(new RunSpec("test", m, w, policies, 1, 1_000_000, 0));
    }
}
