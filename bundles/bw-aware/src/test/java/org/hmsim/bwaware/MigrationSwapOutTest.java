package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * A migration policy swapped out stops migrating (found by a statistics review): bandwidth balancing's poll and
 * balancing timers went on firing after its swap to {@code none}, so the pages still queued moved after it had left
 * (os.migrations 396 against the policy's 243 completed). Left: the swap's drain waits for the copies in flight, and
 * the old policy keeps starting copies from its queue until it runs dry (docs/study-files.md).
 */
class MigrationSwapOutTest {
    private static RunResult run(List<ScriptedSwap> swaps) {
        Sim policies = Sim.placement("ddr-only").with(Slot.MIGRATION, "bandwidth-balancing");
        RunSpec spec = new RunSpec("t", Sim.machine("agarwal-ch4"), Sim.workload("hotspot", "iterations", 4), policies, 1, 5_000_000, 0);
        return Simulation.run(spec, swaps);
    }

    @Test
    void aSwappedOutMigratorMovesNoPageAfterTheSwap() {
        List<ScriptedSwap> toNone = List.of(new ScriptedSwap(ScriptedSwap.When.TIME, 15_000_000, Slot.MIGRATION, new ScriptedSwap.Choice("none", Map.of())));
        RunResult[] r = Sim.parallel(() -> run(List.of()), () -> run(toNone));
        double all = r[0].stats().get("os.migrations"), swapped = r[1].stats().get("os.migrations");
        double completed = r[1].stats().get("policy.migration.completed");
        System.out.printf("migrations: %.0f without the swap, %.0f with it (the policy completed %.0f, %.0f queued)%n", all, swapped, completed,
                r[1].stats().get("policy.migration.queued"));
        assertEquals(1.0, r[1].metrics().get("swaps"), "the swap at 15 us took place");
        assertEquals(completed, swapped, "every migration is one the policy started and saw complete before it left");
        assertTrue(swapped < all * 0.5, "the swap to none stopped migration: " + swapped + " of " + all);
        assertEquals(0.0, r[1].stats().get("policy.migration.queued"), "its queue left with it");
    }
}
