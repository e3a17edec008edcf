package org.hmsim.platform.traces;

import org.hmsim.platform.machine.ClasspathPolicies;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.traces.text.TextTraceWriter;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A traced run gives the same numbers as the workload it was recorded from (small preset, baseline policies). */
class TracedRunTest {
    @TempDir
    Path dir;

    private void sameNumbers(Workload original, Workload again, String file) throws IOException {
        Path p = dir.resolve(file);
        try (TraceWriter w = new TraceWriter(p)) {
            TraceRecorder.record(again, w, 100_000_000);
        }
        MachineConfig m = TestMachines.machine("small");
        RunResult direct = TestMachines.run(m, original, new ClasspathPolicies());
        TraceWorkloadProvider provider = TraceWorkloadProvider.open(p);
        RunResult traced = TestMachines.run(m, provider.create(Params.empty(), 1), new ClasspathPolicies());
        provider.trace().close();
        assertTrue(direct.simTimePs() > 0);
        assertEquals(direct.simTimePs(), traced.simTimePs(), "simulated time");
        assertEquals(direct.memoryRequests(), traced.memoryRequests(), "memory requests");
        assertEquals(direct.stats(), traced.stats(), "every statistic");
    }

    @Test
    void streamTraceRunsLikeStream() throws IOException {
        sameNumbers(TestMachines.workload("stream", 1, "elements", 65536), TestMachines.workload("stream", 1, "elements", 65536), "stream.hmt");
    }

    @Test
    void bfsTraceRunsLikeBfs() throws IOException {
        sameNumbers(TestMachines.workload("bfs", 3, "nodes", 4096), TestMachines.workload("bfs", 3, "nodes", 4096), "bfs.hmt");
    }

    @Test
    void workloadFileTraceRunsLikeTheFile() throws IOException {
        Path saxpy = TestMachines.examples().resolve("workloads/saxpy.yaml");
        WorkloadProvider p = WorkloadFile.load(saxpy);
        java.util.Map<String, Object> given = java.util.Map.of("n", 65536);
        sameNumbers(p.create(Params.validate(p.parameters(), given), 5), p.create(Params.validate(p.parameters(), given), 5), "saxpy.hmt");
    }

    @Test
    void textTraceRunsLikeTheBinary() throws IOException {
        Path txt = dir.resolve("stream.hmtt");
        try (TextTraceWriter w = new TextTraceWriter(txt)) {
            TraceRecorder.record(TestMachines.workload("stream", 2, "elements", 16384), w, 10_000_000);
        }
        MachineConfig m = TestMachines.machine("small");
        RunResult direct = TestMachines.run(m, TestMachines.workload("stream", 2, "elements", 16384), new ClasspathPolicies());
        RunResult traced = TestMachines.run(m, TraceWorkloadProvider.open(txt).create(Params.empty(), 9), new ClasspathPolicies());
        assertEquals(direct.stats(), traced.stats());
    }
}
