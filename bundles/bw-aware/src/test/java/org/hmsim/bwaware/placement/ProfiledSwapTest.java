package org.hmsim.bwaware.placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.junit.jupiter.api.Test;

/**
 * Oracle placement swapped in mid-run gets the run's profile, as it does at the start (seed 000 §2.3). A review found
 * it got none and fell back to bandwidth draws: the run was byte-identical to a swap to bw-aware, under oracle's name.
 */
class ProfiledSwapTest {
    private static RunResult swapTo(String placement, Map<String, Object> params) {
        ClasspathPolicies policies = new ClasspathPolicies(new OraclePlacementProvider(), new BwAwarePlacementProvider()).with(Slot.PLACEMENT, "local", Map.of());
        RunSpec spec = new RunSpec("t", Presets.machine("small"), BuiltinWorkloads.create("bfs", 1, "nodes", 16384), policies, 1, 1_000_000, 0);
        ScriptedSwap swap = new ScriptedSwap(ScriptedSwap.When.TIME, 1_000_000, Slot.PLACEMENT, new ScriptedSwap.Choice(placement, params));
        return Simulation.run(spec, List.of(swap));
    }

    @Test
    void oracleSwappedInMidRunPlacesByTheProfile() {
        RunResult[] r = Simulation.concurrently(() -> swapTo("oracle", Map.of()), () -> swapTo("bw-aware", Map.of("percent_step", 0)));
        System.out.printf("local -> oracle at 1 us: %.1f ns; local -> bw-aware: %.1f ns%n", r[0].simTimeNs(), r[1].simTimeNs());
        assertTrue(r[0].simTimeNs() < 0.97 * r[1].simTimeNs(), "the oracle's hot pages in the fast pool: " + r[0].simTimeNs() + " vs " + r[1].simTimeNs());
    }
}
