package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.Test;

/**
 * Throttling {@code static} on the small preset, through the platform's SM caps: a warp cap lifts a cache-sensitive
 * kernel (each warp re-reading its own lines, examples/workloads/warp-private-reuse.yaml) out of L1 thrashing, as CCWS's
 * static warp limiting does, and costs a streaming kernel its latency hiding; an SM cap leaves the other SMs idle; swaps
 * in and out mid-kernel strand no block, and a self-swap at every epoch changes nothing.
 */
class StaticThrottlingTest {
    private static final long EPOCH = 1_000_000; // 1 us

    @Test
    void aWarpCapKeepsACacheSensitiveKernelsLinesInTheL1AndSlowsAStreamingOne() {
        RunResult all = run(reuse(), new ClasspathPolicies());
        RunResult eight = run(reuse(), new ClasspathPolicies().with(Slot.THROTTLING, "static", "warps_per_sm", 8));
        assertTrue(all.metrics().get("l1_hit_rate") < 0.1, "48 warps x 8 lines overflow the 128-line L1: " + all.metrics().get("l1_hit_rate"));
        assertTrue(eight.metrics().get("l1_hit_rate") > 0.8, "8 warps' lines fit: " + eight.metrics().get("l1_hit_rate"));
        assertTrue(all.simTimePs() > 1.3 * eight.simTimePs(), "fewer warps, faster: " + all.simTimePs() + " against " + eight.simTimePs() + " ps");

        Workload stream = TestMachines.workload("stream", 1, "elements", 262144);
        RunResult streamAll = run(stream, new ClasspathPolicies());
        RunResult streamEight = run(TestMachines.workload("stream", 1, "elements", 262144),
                new ClasspathPolicies().with(Slot.THROTTLING, "static", "warps_per_sm", 8));
        assertTrue(streamEight.simTimePs() > 1.5 * streamAll.simTimePs(), "a stream needs its warps to hide DRAM latency: "
                + streamEight.simTimePs() + " against " + streamAll.simTimePs() + " ps");
    }

    /** Kernels with barriers under caps of one and two warps (a review found both deadlocked before the SM looked again after a barrier). */
    @Test
    void barrierKernelsRunUnderAWarpCapOfOneOrTwo() {
        for (int warps : new int[] {1, 2}) {
            RunResult reduction = run(TestMachines.workload("sdk-reduction", 1, "elements", 16384),
                    new ClasspathPolicies().with(Slot.THROTTLING, "static", "warps_per_sm", warps));
            RunResult sgemm = run(TestMachines.workload("sgemm", 1, "n", 64), new ClasspathPolicies().with(Slot.THROTTLING, "static", "warps_per_sm", warps));
            assertTrue(reduction.stats().get("gpu0.sm0.barriers") > 0 && sgemm.stats().get("gpu0.sm0.barriers") > 0, "kernels with barriers");
        }
    }

    @Test
    void anSmCapLeavesTheOtherSmsIdleAndABlockCapSlowsTheStream() {
        RunResult one = run(TestMachines.workload("stream", 1, "elements", 65536), new ClasspathPolicies().with(Slot.THROTTLING, "static", "sms_per_gpu", 1));
        assertTrue(one.stats().get("gpu0.sm0.issued") > 0);
        for (int sm = 1; sm < 4; sm++) assertEquals(0.0, one.stats().get("gpu0.sm" + sm + ".issued"), "SM " + sm + " took no block");
        // each SM's busy time: the one SM held blocks for most of the run and issued in fewer cycles; the others none
        double busy = one.stats().get("gpu0.sm0.occupied_cycles"), cycles = one.simTimePs() / (1e6 / TestMachines.machine("small").gpu().clockMHz());
        assertTrue(busy >= one.stats().get("gpu0.sm0.issue_cycles") && busy > 0.5 * cycles && busy <= cycles + 1, busy + " of " + cycles + " cycles");
        for (int sm = 1; sm < 4; sm++) assertEquals(0.0, one.stats().get("gpu0.sm" + sm + ".occupied_cycles"), "SM " + sm + " was never busy");

        RunResult free = run(TestMachines.workload("stream", 1, "elements", 65536), new ClasspathPolicies());
        RunResult oneBlock = run(TestMachines.workload("stream", 1, "elements", 65536), new ClasspathPolicies().with(Slot.THROTTLING, "static", "ctas_per_sm", 1));
        assertEquals(free.stats().get("gpu0.ctas_launched"), oneBlock.stats().get("gpu0.ctas_launched"), "the same grid");
        assertTrue(oneBlock.simTimePs() > 1.5 * free.simTimePs(), "one block per SM: " + oneBlock.simTimePs() + " against " + free.simTimePs() + " ps");
    }

    /** Alternating none and one SM per GPU every 2 us: SMs 1-3 leave and rejoin dispatch mid-kernel, and every block runs. */
    @Test
    void swappingStaticInAndOutMidKernelStrandsNoBlock() {
        SwappableProviders swapping = new SwappableProviders().swap(new ScriptedSwap(When.EVERY_EPOCHS, 2, Slot.THROTTLING,
                List.of(new Choice("static", Map.of("sms_per_gpu", 1, "warps_per_sm", 4)), new Choice("none", Map.of())), "script"));
        RunResult r = swapping.run("small", TestMachines.workload("stream", 1, "elements", 262144), EPOCH);
        RunResult plain = new SwappableProviders().run("small", TestMachines.workload("stream", 1, "elements", 262144), EPOCH);
        assertTrue(swapping.records.size() >= 6, swapping.records.toString());
        assertTrue(swapping.records.get(0).toString().contains("hardware's thread-block and warp limits"), swapping.records.get(0).toString());
        assertEquals(plain.stats().get("gpu0.ctas_launched"), r.stats().get("gpu0.ctas_launched"), "every block ran");
        assertTrue(r.simTimePs() > plain.simTimePs(), "half the time on one SM: slower");
        for (int sm = 1; sm < 4; sm++) assertTrue(r.stats().get("gpu0.sm" + sm + ".issued") > 0, "SM " + sm + " ran while none was in");
    }

    @Test
    void aSelfSwapOfStaticAtEveryEpochChangesNothing() {
        Map<String, Object> caps = Map.of("warps_per_sm", 8, "ctas_per_sm", 3);
        SwappableProviders plain = new SwappableProviders().with(Slot.THROTTLING, "static", caps);
        SwappableProviders self = new SwappableProviders().with(Slot.THROTTLING, "static", caps)
                .swap(new ScriptedSwap(When.EVERY_EPOCHS, 1, Slot.THROTTLING, List.of(new Choice("static", caps)), "script"));
        RunResult a = plain.run("small", reuse(), EPOCH), b = self.run("small", reuse(), EPOCH);
        assertTrue(self.records.size() > 5, self.records.toString());
        assertEquals(a.simTimePs(), b.simTimePs(), "static self-swapped every epoch");
        assertEquals(a.stats(), b.stats());
    }

    private static RunResult run(Workload w, ClasspathPolicies p) { return TestMachines.run(TestMachines.machine("small"), w, p); }

    private static Workload reuse() {
        WorkloadProvider p = WorkloadFile.load(TestMachines.examples().resolve("workloads/warp-private-reuse.yaml"));
        return p.create(Params.validate(p.parameters(), Map.of()), 1);
    }
}
