package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.junit.jupiter.api.Test;

/**
 * What a dynamic throttling policy is told and may read (a researcher writing a DYNCTA-like bundle found no launch or
 * end callback, no per-SM stall counter and no epoch length): begin at 0 with the epoch known, each launch, the workload's end; each SM's issued instructions,
 * issue cycles and occupied cycles, which at every epoch satisfy issue <= occupied <= elapsed cycles.
 */
class ThrottlingLifecycleTest {
    static final List<String> calls = new ArrayList<>();
    static final List<long[]> samples = new ArrayList<>();

    static final class Recording implements PolicyProvider {
        @Override public Slot slot() { return Slot.THROTTLING; }
        @Override public String name() { return "recording"; }
        @Override public String description() { return "records its calls (test)"; }
        @Override public List<ParamSpec> parameters() { return List.of(); }

        @Override
        public Policy create(PolicyContext ctx, Params params) {
            return new ThrottlingPolicy() {
                @Override public void begin(long nowPs) { calls.add("begin@" + nowPs + " epoch " + ctx.epochPs()); }

                @Override public void onKernelLaunch(int kernel, long nowPs) { calls.add("launch " + kernel); }

                @Override public void onWorkloadEnd(long nowPs) { calls.add("end"); }

                @Override
                public void onEpoch(long nowPs) {
                    long elapsed = nowPs / ctx.machine().gpuClock().periodPs();
                    for (CoreView sm : ctx.machine().sms()) samples.add(new long[] {sm.issueCycles(), sm.occupiedCycles(), elapsed, sm.issued()});
                }
            };
        }
    }

    @Test
    void aThrottlingPolicyIsToldEachLaunchAndTheEndAndReadsEachSmsCycles() {
        calls.clear();
        samples.clear();
        RunResult r = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("bfs", 1, "nodes", 4096),
                new ClasspathPolicies(new Recording()).with(Slot.THROTTLING, "recording", Map.of()));
        int kernels = (int) Math.round(r.metrics().get("kernels"));
        List<String> expected = new ArrayList<>(List.of("begin@0 epoch 1000000")); // TestMachines.run's 1 us epoch
        for (int k = 0; k < kernels; k++) expected.add("launch " + k);
        expected.add("end");
        assertEquals(expected, calls);
        assertTrue(samples.size() > 4, "epochs sampled: " + samples.size());
        for (long[] s : samples) assertTrue(s[0] <= s[1] && s[1] <= s[2] + 1, "issue <= occupied <= elapsed: " + java.util.Arrays.toString(s));
        assertTrue(samples.stream().anyMatch(s -> s[1] > s[0] && s[3] > 0), "an SM waited while it held blocks");
    }
}
