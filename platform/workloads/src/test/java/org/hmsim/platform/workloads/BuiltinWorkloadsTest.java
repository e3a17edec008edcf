package org.hmsim.platform.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WorkloadProvider;
import org.junit.jupiter.api.Test;

/** Properties every built-in must have, on small configurations. */
class BuiltinWorkloadsTest {
    private static final Set<String> RANDOMISED = Set.of("spmv", "bfs", "btree", "pointer-chase");

    @Test
    void registryHasAtLeastNineNamedDocumentedWorkloads() {
        List<WorkloadProvider> all = BuiltinWorkloads.all();
        assertTrue(all.size() >= 9);
        for (String n : List.of("stream", "hotspot", "srad", "sgemm", "spmv", "minife", "bfs", "kmeans", "needle", "btree", "pointer-chase"))
            assertEquals(n, BuiltinWorkloads.byName(n).name());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BuiltinWorkloads.byName("nope"));
        assertTrue(e.getMessage().contains("stream"), e.getMessage());
        for (WorkloadProvider p : all) {
            assertFalse(p.description().isBlank(), p.name());
            assertFalse(p.parameters().isEmpty(), p.name());
            for (ParamSpec s : p.parameters()) {
                assertFalse(s.doc().isBlank(), p.name() + "." + s.name());
                s.coerce(s.defaultValue()); // every default is inside its own range
            }
        }
    }

    @Test
    void everyWorkloadIsFiniteInBoundsAndBarrierConsistent() {
        for (WorkloadProvider p : BuiltinWorkloads.all()) {
            // per (kernel, cta, warp): barriers seen; all warps of a CTA must reach the same number
            Map<Long, Integer> barriers = new HashMap<>();
            var s = WorkloadInspector.inspect(TestSupport.small(p, 7), 5_000_000, (k, cta, warp, in, owner) -> {
                if (in.kind == Kind.BARRIER) barriers.merge(((long) k << 40) | ((long) cta << 10) | warp, 1, Integer::sum);
            });
            assertTrue(s.memoryInstructions() > 0, p.name());
            var w = TestSupport.small(p, 7);
            var kernels = w.kernels(WorkloadInspector.layout(w.allocations()));
            for (int k = 0; k < kernels.size(); k++)
                for (int cta = 0; cta < kernels.get(k).ctas(); cta++) {
                    int first = barriers.getOrDefault(((long) k << 40) | ((long) cta << 10), 0);
                    for (int warp = 1; warp < kernels.get(k).warpsPerCta(); warp++)
                        assertEquals(first, barriers.getOrDefault(((long) k << 40) | ((long) cta << 10) | warp, 0),
                                p.name() + " kernel " + k + " CTA " + cta + " warp " + warp + " barrier count");
                }
        }
    }

    @Test
    void deterministicForASeedAndSeedSensitiveWhereRandom() {
        for (WorkloadProvider p : BuiltinWorkloads.all()) {
            long a = WorkloadInspector.inspect(TestSupport.small(p, 11), 5_000_000).checksum();
            long b = WorkloadInspector.inspect(TestSupport.small(p, 11), 5_000_000).checksum();
            assertEquals(a, b, p.name() + " must be deterministic for one seed");
            long c = WorkloadInspector.inspect(TestSupport.small(p, 12), 5_000_000).checksum();
            if (RANDOMISED.contains(p.name())) assertNotEquals(a, c, p.name() + " should depend on the seed");
        }
    }

    @Test
    void warpProgramsDoNotDependOnCreationOrder() {
        // the SM may create warps in any order: a warp's stream must be a function of (cta, warp) only
        for (String name : RANDOMISED) {
            var w = TestSupport.small(BuiltinWorkloads.byName(name), 3);
            var k = w.kernels(WorkloadInspector.layout(w.allocations())).get(0);
            List<Long> forward = new ArrayList<>(), backward = new ArrayList<>();
            for (int c = 0; c < k.ctas(); c++) forward.add(stream(k.program(c, 0)));
            for (int c = k.ctas() - 1; c >= 0; c--) backward.add(0, stream(k.program(c, 0)));
            assertEquals(forward, backward, name);
        }
    }

    private static long stream(org.hmsim.api.workload.WarpProgram p) {
        WarpInstruction in = new WarpInstruction();
        long h = 0;
        while (p.next(in)) {
            h = h * 31 + in.kind.ordinal();
            for (int l = 0; l < 32; l++) if ((in.activeMask & (1 << l)) != 0) h = h * 31 + in.addresses[l];
        }
        return h;
    }
}
