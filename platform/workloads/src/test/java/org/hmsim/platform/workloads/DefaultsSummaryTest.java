package org.hmsim.platform.workloads;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.WorkloadProvider;
import org.junit.jupiter.api.Test;

/** Every built-in at its defaults: a finite stream, in bounds, of a size that simulates quickly. */
class DefaultsSummaryTest {
    @Test
    void defaultsAreFiniteInBoundsAndSmall() {
        for (WorkloadProvider p : BuiltinWorkloads.all()) {
            long t0 = System.nanoTime();
            var s = WorkloadInspector.inspect(((BuiltinProvider) p).createDefault(1), 2_000_000);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("%-14s footprint %9.2f MB  kernels %4d  warps %7d  instr %8d  mem %8d  lines %8d  (%d ms)%n",
                    p.name(), s.footprint() / 1048576.0, s.kernels(), s.warps(), s.instructions(), s.memoryInstructions(), s.linesTotal(), ms);
            assertTrue(s.memoryInstructions() > 0, p.name());
            assertTrue(s.footprint() < 16L << 20, p.name() + " default footprint should be a few MB");
        }
    }
}
