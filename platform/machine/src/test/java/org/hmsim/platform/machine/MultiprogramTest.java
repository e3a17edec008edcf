package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
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
        // the grid launcher's balance does not apply; the GPUs idle after their program, GPU 3 for the whole run
        assertTrue(!r.metrics().containsKey("cta_imbalance"), "no cta_imbalance in a mix");
        double idle = 1;
        for (int p = 0; p < 3; p++) idle += 1 - r.metrics().get("program" + p + "_time_ns") / last;
        assertEquals(idle / 4, r.metrics().get("gpu_idle_tail_fraction"), 1e-9);
    }

    /** Two programs may both allocate "own": the run names program p's allocations p<p>.<name>, so policies keyed by name tell them apart. */
    @Test
    void eachProgramsAllocationsAreNamedAfterIt() {
        var names = new MixWorkload("m", List.of(blocks(8), blocks(8))).allocations().stream().map(a -> a.name()).toList();
        assertEquals(List.of("p0.own", "p0.shared", "p1.own", "p1.shared"), names.stream().filter(n -> n.endsWith("own") || n.endsWith("shared")).toList(), names.toString());
        assertEquals(names.size(), names.stream().distinct().count(), names.toString());
    }

    /**
     * A scripted swap at a launch drains every GPU, the other programs' running kernels included, and every launch of every
     * program still runs. (The swapper now queues every launch that arrives during a swap; it kept one, which a second
     * program's kernel ending in its stores' drain would have replaced. This run does not hit that window.)
     */
    @Test
    void launchesOfSeveralProgramsWaitForADrainingSwap() {
        SwappableProviders src = new SwappableProviders()
                .swap(new ScriptedSwap(ScriptedSwap.When.KERNEL, 2, Slot.L2_MISS_PATH, new ScriptedSwap.Choice("conventional", Map.of())));
        Workload mix = new MixWorkload("m", List.of(TestMachines.workload("bfs", 1, "nodes", 4096), TestMachines.workload("bfs", 2, "nodes", 4096)));
        RunResult r = Simulation.run(new RunSpec("swap", TestMachines.machine("coda"), mix, src, 1, 1_000_000, 0));
        assertEquals(1, src.records.size(), src.records.toString());
        assertEquals("ok", src.records.get(0).outcome(), src.records.toString());
        assertTrue(src.records.get(0).drainSimPs() > 0, "the swap drained the GPUs: " + src.records);
        double kernels = 0;
        for (int g = 0; g < 2; g++) kernels += r.stats().get("gpu" + g + ".kernels_completed");
        double launches = 0;
        for (long seed = 1; seed <= 2; seed++) {
            Workload w = TestMachines.workload("bfs", seed, "nodes", 4096);
            launches += w.kernels(new long[w.allocations().size()]).size();
        }
        assertEquals(launches, kernels, "every launch of both programs ran");
        assertTrue(launches > 4, "several launches each: " + launches);
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
