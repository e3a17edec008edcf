package org.hmsim.platform.traces;

import java.io.IOException;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.yaml.snakeyaml.Yaml;

/** Copied from platform/machine tests. Machines and workloads for tests: the shipped presets, with overrides at dotted paths. */
final class TestMachines {
    private TestMachines() {}

    static Path examples() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("examples/machines"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("examples/machines not found above " + Path.of("").toAbsolutePath());
        return p.resolve("examples");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> tree(String preset) {
        try {
            String text = Files.readString(examples().resolve("machines").resolve(preset + ".yaml"));
            return (Map<String, Object>) new Yaml().load(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code preset} with {@code overrides} ("gpu.sms", 4, "pools.0.bandwidth", "50GB/s", ...). */
    @SuppressWarnings("unchecked")
    static MachineConfig machine(String preset, Object... overrides) {
        Map<String, Object> t = tree(preset);
        for (int i = 0; i < overrides.length; i += 2) {
            String[] path = ((String) overrides[i]).split("\\.");
            Object node = t;
            for (int k = 0; k < path.length - 1; k++) {
                Object next = node instanceof List<?> l ? l.get(Integer.parseInt(path[k])) : ((Map<String, Object>) node).get(path[k]);
                if (next == null) {
                    next = new LinkedHashMap<String, Object>();
                    ((Map<String, Object>) node).put(path[k], next);
                }
                node = next;
            }
            String last = path[path.length - 1];
            if (node instanceof List<?> l) ((List<Object>) l).set(Integer.parseInt(last), overrides[i + 1]);
            else ((Map<String, Object>) node).put(last, overrides[i + 1]);
        }
        return MachineConfig.parse(t);
    }

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
