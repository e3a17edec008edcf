package org.hmsim.platform.workloads.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.hmsim.platform.workloads.file.WorkloadFileException;
import org.junit.jupiter.api.Test;

/** CPU phases: the eleven apu-* models and the workload file's host: list. */
class HostPhasesTest {
    private static final String FILE = """
            name: hosted
            allocations:
              - {name: a, size: 65536}
              - {name: b, size: 8192}
            kernels:
              - name: k
                grid: 4
                block: 256
                steps:
                  - load: {alloc: a, index: "cta*256 + tid"}
            iterations: 3
            host:
              - {before: 0, name: init, streams: [{alloc: a, write: true}]}
              - {before: 2, name: flag, compute: 3, streams: [{alloc: b, stride: 64}]}
              - {before: end, name: post, streams: [{alloc: a, stride: 4}]}
            """;

    @Test
    void everyApuModelHasInitKernelsAndTheSeedsPhases() {
        for (String app : List.of("bfs", "bitonic", "coloring", "histogram", "hotspot", "kmeans", "lud", "matrixmul", "nw", "reduction", "srad")) {
            WorkloadProvider p = BuiltinWorkloads.byName("apu-" + app);
            Workload w = p.create(Params.validate(p.parameters(), Map.of("elements", 4096)), 1);
            long[] base = new long[w.allocations().size()];
            for (int i = 0; i < base.length; i++) base[i] = (1L << 32) + (long) i << 24;
            assertFalse(w.kernels(base).isEmpty(), app);
            List<HostPhase> ph = w.hostPhases(base);
            assertEquals(0, ph.get(0).beforeKernel(), app + ": starts with CPU initialisation");
            assertTrue(ph.get(0).streams().stream().allMatch(HostPhase.Stream::write), app + ": initialisation writes");
        }
        Workload nw = BuiltinWorkloads.byName("apu-nw").create(Params.validate(BuiltinWorkloads.byName("apu-nw").parameters(), Map.of()), 1);
        long[] base = {1L << 32, 1L << 33};
        assertEquals(HostPhase.AFTER_LAST_KERNEL, nw.hostPhases(base).get(nw.hostPhases(base).size() - 1).beforeKernel(), "nw post-processes");
    }

    @Test
    void workloadFilesDeclareHostPhases() {
        WorkloadProvider p = WorkloadFile.parse(FILE, "hosted.yaml");
        Workload w = p.create(Params.validate(p.parameters(), Map.of()), 1);
        List<HostPhase> ph = w.hostPhases(new long[] {1L << 32, 1L << 33});
        assertEquals(3, ph.size());
        assertEquals(65536, ph.get(0).streams().get(0).bytes());
        assertEquals(16, ph.get(0).streams().get(0).strideBytes(), "default stride: one 16 B vector access");
        assertTrue(ph.get(0).streams().get(0).write());
        assertEquals(2, ph.get(1).beforeKernel());
        assertEquals(3, ph.get(1).computeCycles());
        assertEquals(HostPhase.AFTER_LAST_KERNEL, ph.get(2).beforeKernel());
        WorkloadFileException e = assertThrows(WorkloadFileException.class,
                () -> WorkloadFile.parse(FILE.replace("{alloc: b, stride: 64}", "{alloc: c, stride: 64}"), "hosted.yaml"));
        assertTrue(e.getMessage().contains("hosted.yaml") && e.getMessage().contains("unknown allocation 'c'"), e.getMessage());
    }

    @Test
    void aPhaseMayRunAlongsideALaunch() {
        String alongside = FILE.replace("{before: 2, name: flag,", "{alongside: 1, name: flag,");
        WorkloadProvider p = WorkloadFile.parse(alongside, "hosted.yaml");
        List<HostPhase> ph = p.create(Params.validate(p.parameters(), Map.of()), 1).hostPhases(new long[] {1L << 32, 1L << 33});
        assertTrue(ph.get(1).alongside());
        assertEquals(1, ph.get(1).beforeKernel());
        assertFalse(ph.get(0).alongside());
        WorkloadFileException both = assertThrows(WorkloadFileException.class,
                () -> WorkloadFile.parse(FILE.replace("{before: 2, name: flag,", "{before: 2, alongside: 1, name: flag,"), "hosted.yaml"));
        assertTrue(both.problem().startsWith("a host phase runs either before a launch or alongside one"), both.problem());
        assertEquals(14, both.line(), "the phase's line");
        WorkloadFileException neither = assertThrows(WorkloadFileException.class,
                () -> WorkloadFile.parse(FILE.replace("{before: 2, name: flag,", "{name: flag,"), "hosted.yaml"));
        assertTrue(neither.problem().startsWith("missing field 'before' (a launch index or 'end') or 'alongside'"), neither.problem());
        WorkloadFileException end = assertThrows(WorkloadFileException.class,
                () -> WorkloadFile.parse(FILE.replace("{before: 2, name: flag,", "{alongside: end, name: flag,"), "hosted.yaml"));
        assertTrue(end.problem().startsWith("alongside must be a launch index"), end.problem());
        WorkloadFileException late = assertThrows(WorkloadFileException.class, () -> {
            WorkloadProvider q = WorkloadFile.parse(FILE.replace("{before: 2, name: flag,", "{alongside: 3, name: flag,"), "hosted.yaml");
            q.create(Params.validate(q.parameters(), Map.of()), 1);
        });
        assertEquals("alongside 3 is not a launch of this workload: it launches 3 kernels (0-based indices)", late.problem());
    }
}
