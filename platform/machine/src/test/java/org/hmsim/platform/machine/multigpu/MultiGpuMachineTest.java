package org.hmsim.platform.machine.multigpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.junit.jupiter.api.Test;

/** The `coda` preset end to end with the baseline policies: fine spread over 4 GPUs, round-robin blocks. */
class MultiGpuMachineTest {
    private static Workload workload(String name, Object... p) {
        WorkloadProvider w = BuiltinWorkloads.byName(name);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < p.length; i += 2) m.put((String) p[i], p[i + 1]);
        return w.create(Params.validate(w.parameters(), m), 1);
    }

    private static RunResult run(String preset, Workload w) {
        return Simulation.run(new RunSpec("test", Presets.machine(preset), w, new ClasspathPolicies(), 1, 10_000_000L, 0));
    }

    @Test
    void everyGpuRunsBlocksAndThreeQuartersOfSpreadTrafficIsRemote() {
        RunResult r = run("coda", workload("stream", "elements", 65536, "ctas", 64));
        var s = r.stats();
        double ctas = 0;
        for (int g = 0; g < 4; g++) {
            double c = s.get("grid.gpu" + g + ".ctas");
            assertTrue(c >= 4, "gpu" + g + " ran " + c + " blocks");
            ctas += c;
            assertTrue(s.get("gpu" + g + ".fabric.remote_requests") > 0);
        }
        assertEquals(64, ctas);
        // 128 B blocks round the 4 memories: 3 of 4 L2 misses and write-backs leave the GPU
        assertEquals(0.75, r.metrics().get("remote_fraction"), 0.03);
        assertTrue(r.metrics().get("link_utilisation_max") > 0);
        // write-backs reach the blocks' homes: every HBM serves about a quarter of the bytes
        double total = 0;
        double[] b = new double[4];
        for (int p = 0; p < 4; p++) total += b[p] = r.metrics().get("pool.hbm" + p + ".bytes");
        for (int p = 0; p < 4; p++) assertEquals(0.25, b[p] / total, 0.03, "hbm" + p);
        assertEquals(r.metrics().get("local_bytes") + r.metrics().get("remote_bytes"), total, total * 0.01);
    }

    @Test
    void singleGpuMachinesHaveNoMultiGpuParts() {
        RunResult r = run("small", workload("stream", "elements", 8192, "ctas", 8));
        assertFalse(r.metrics().containsKey("remote_fraction"));
        assertFalse(r.stats().keySet().stream().anyMatch(k -> k.startsWith("grid.") || k.startsWith("os.groups.")));
    }
}
