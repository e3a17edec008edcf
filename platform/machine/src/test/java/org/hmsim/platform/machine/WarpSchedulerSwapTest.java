package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A warp-scheduler swap rebuilds each SM's state from the live warps' ages and then replays the SM's last issue, so a
 * self-swap of a stateful scheduler changes nothing. Told ages alone, GTO lost its greedy warp at every swap (found by
 * a live-swap stress review: bfs on the small machine 62,211 -> 62,473 ns with a gto self-swap every epoch).
 */
class WarpSchedulerSwapTest {
    private static final long EPOCH = 1_000_000; // 1 us

    @Test
    void aGtoSelfSwapAtEveryEpochEndChangesNothing() { selfSwapChangesNothing("gto", "lrr"); }

    @Test
    void anLrrSelfSwapAtEveryEpochEndChangesNothing() { selfSwapChangesNothing("lrr", "gto"); }

    private static void selfSwapChangesNothing(String policy, String other) {
        SwappableProviders plain = new SwappableProviders().with(Slot.WARP_SCHEDULER, policy, Map.of());
        SwappableProviders self = new SwappableProviders().with(Slot.WARP_SCHEDULER, policy, Map.of()).swap(new ScriptedSwap(When.EVERY_EPOCHS,
                1, Slot.WARP_SCHEDULER, List.of(new Choice(policy, Map.of()), new Choice(policy, Map.of())), "script"));
        SwappableProviders otherOnly = new SwappableProviders().with(Slot.WARP_SCHEDULER, other, Map.of());
        RunResult a = run(plain), b = run(self), c = run(otherOnly);
        assertTrue(self.records.size() > 5, self.records.toString());
        assertNotEquals(a.simTimePs(), c.simTimePs(), "the scheduler matters on this run (else it shows nothing)");
        assertEquals(a.simTimePs(), b.simTimePs(), policy + " self-swapped every epoch");
        assertEquals(a.stats(), b.stats());
    }

    private static RunResult run(SwappableProviders src) { return src.run("small", TestMachines.workload("bfs", 3, "nodes", 4096), EPOCH); }
}
