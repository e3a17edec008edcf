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
 * balancing timers went on firing after its swap to {@code none}, and it kept starting copies while the swap waited for
 * the copies in flight, so the pages queued at the swap moved anyway (os.migrations 396 against the policy's 243
 * completed) and the drain lasted as long as the queue (14.5 us).
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
        assertTrue(swapped < all * 0.8, "the swap to none stopped migration: " + swapped + " of " + all);
        assertEquals(0.0, r[1].stats().get("policy.migration.queued"), "its queue left with it");
        // the swap waits only for the copies in flight at 15 us: none starts while it drains
        int col = r[1].seriesNames().indexOf("policy.migration.completed");
        double atSwap = -1;
        for (double[] row : r[1].seriesRows()) if (row[0] == 15_000) atSwap = row[col + 1];
        double inFlight = r[1].stats().get("os.migrations_peak_in_flight");
        assertTrue(atSwap >= 0 && swapped <= atSwap + inFlight, swapped + " migrations, " + atSwap + " done at the swap, at most " + inFlight + " in flight");
    }
}
