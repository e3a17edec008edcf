package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.mix.MixWorkload;
import org.junit.jupiter.api.Test;

/**
 * Seed 004 §6.5's multiprogrammed mixes: program p runs on GPU p alone, the programs side by side, the run ending with
 * the last. With the baseline's fine interleave every program's data is spread over every GPU's memory, so co-runners
 * contend for the links and memories a program alone has to itself.
 */
class MultiprogramTest {
    private static Workload stream(int elements, int ctas) { return TestMachines.workload("stream", 1, "elements", elements, "ctas", ctas); }

    private static Workload blocks(int ctas) { return TestMachines.workload("block-exclusive", 1, "ctas", ctas); }

    private static RunResult run(Workload... programs) {
        return TestMachines.run(TestMachines.machine("coda"), new MixWorkload("mix", List.of(programs)), new ClasspathPolicies());
    }

    @Test
    void eachProgramRunsOnItsOwnGpuAndTheRunEndsWithTheLast() {
        RunResult r = run(stream(65536, 32), blocks(48), stream(16384, 8));
        var s = r.stats();
        int[] ctas = {32, 48, 8, 0};
        for (int g = 0; g < 4; g++)
            assertEquals(ctas[g], s.get("gpu" + g + ".ctas_launched"), 0, "gpu" + g + " ran only its program's blocks");
        double last = 0;
        for (int p = 0; p < 3; p++) {
            double t = r.metrics().get("program" + p + "_time_ns");
            assertTrue(t > 0, "program " + p);
            last = Math.max(last, t);
        }
        assertEquals(last, r.metrics().get("sim_time_ns"), 1e-6);
        assertEquals((r.metrics().get("program0_time_ns") + r.metrics().get("program1_time_ns") + r.metrics().get("program2_time_ns")) / 3,
                r.metrics().get("mean_program_time_ns"), 1e-6);
        assertTrue(r.metrics().get("program2_time_ns") < r.metrics().get("program0_time_ns"), "the small stream ends first");
        // fine interleave: three quarters of every program's misses leave its GPU
        assertEquals(0.75, r.metrics().get("remote_fraction"), 0.03);
    }

    @Test
    void coRunnersSlowAProgramDownThroughTheSharedLinksAndRunSideBySide() {
        RunResult alone = run(blocks(128));
        RunResult mixed = run(blocks(128), blocks(128), blocks(128), blocks(128));
        double a = alone.metrics().get("program0_time_ns"), m = mixed.metrics().get("program0_time_ns");
        // each link direction carries one program's requests and the other's responses and write-backs: 1.12x here
        assertTrue(m > 1.06 * a, "alone " + a + " ns, beside three others " + m + " ns");
        // side by side, not one after another
        assertTrue(mixed.metrics().get("sim_time_ns") < 2.5 * a, "four programs took " + mixed.metrics().get("sim_time_ns") + " ns, one " + a);
    }

    @Test
    void aMixIsDeterministic() {
        RunResult a = run(stream(65536, 32), blocks(48)), b = run(stream(65536, 32), blocks(48));
        assertEquals(a.metrics(), b.metrics());
    }

    @Test
    void aMixNeedsAGpuPerProgramAndNoDemandPaging() {
        var five = assertThrows(IllegalArgumentException.class, () -> run(blocks(8), blocks(8), blocks(8), blocks(8), blocks(8)));
        assertTrue(five.getMessage().contains("5 programs") && five.getMessage().contains("4 GPUs"), five.getMessage());
        var uvm = assertThrows(IllegalArgumentException.class, () -> TestMachines.run(TestMachines.machine("etc"),
                new MixWorkload("m", List.of(TestMachines.workload("etc-2dconv", 1))), new ClasspathPolicies()));
        assertTrue(uvm.getMessage().contains("uvm:"), uvm.getMessage());
    }
}
