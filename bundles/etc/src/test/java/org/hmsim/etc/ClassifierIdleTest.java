package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The classifier's sampling window must not keep a run alive: a workload whose kernels issue no memory request left it
 * re-arming every 50k cycles after the last kernel, and the run never ended (found this session: a compute-only
 * workload file on the etc machine ran into the study's timeout).
 */
class ClassifierIdleTest {
    @TempDir Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"once", "per_kernel"})
    void aRunWithoutMemoryRequestsEnds(String classify) throws Exception {
        Path f = Files.writeString(dir.resolve("compute.yaml"), """
                name: compute-only
                allocations:
                  - {name: x, size: 64KB}
                kernels:
                  - name: spin
                    grid: 8
                    block: 64
                    repeat: 2
                    steps:
                      - compute: {cycles: 100}
                """);
        WorkloadProvider w = WorkloadFile.load(f);
        Sim etc = new Sim().with(new MemoryAwareThrottlingProvider(), "classify", classify).with(new CapacityCompressionProvider(), "classify", classify);
        RunSpec spec = new RunSpec("t", Presets.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5), w.create(Params.validate(w.parameters(), Map.of()), 1),
                etc, 1, 5_000_000, 0);
        RunResult r = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Simulation.run(spec));
        assertEquals(0, Sim.stat(r, "policy.throttling.classifier.decisions"), "nothing to classify");
    }
}
