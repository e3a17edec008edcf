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
import org.hmsim.platform.machine.SwapRecord;
import org.junit.jupiter.api.Test;

/**
 * A migration policy swapped out stops migrating (found by a statistics review): bandwidth balancing's poll and
 * balancing timers went on firing after its swap to {@code none}, so the pages still queued moved after it had left
 * (os.migrations 396 against the policy's 243 completed). And the swap takes place at once: until 2026-11-29 it waited,
 * with the GPUs held, for every copy in flight, while the old policy went on starting copies from its queue (a drain
 * of 14.5 us); the copies in flight now complete after the swap without calling back into it.
 */
class MigrationSwapOutTest {
    private static RunResult run(Sim policies, List<ScriptedSwap> swaps) {
        RunSpec spec = new RunSpec("t", Sim.machine("agarwal-ch4"), Sim.workload("hotspot", "iterations", 4), policies, 1, 5_000_000, 0);
        return Simulation.run(spec, swaps);
    }

    private static Sim balancing() { return Sim.placement("ddr-only").with(Slot.MIGRATION, "bandwidth-balancing"); }

    @Test
    void aSwappedOutMigratorMovesNoPageAfterTheSwapAndTheSwapDoesNotWaitForItsCopies() {
        List<ScriptedSwap> toNone = List.of(new ScriptedSwap(ScriptedSwap.When.TIME, 15_000_000, Slot.MIGRATION, new ScriptedSwap.Choice("none", Map.of())));
        Sim swapping = balancing();
        RunResult[] r = Sim.parallel(() -> run(balancing(), List.of()), () -> run(swapping, toNone));
        double all = r[0].stats().get("os.migrations"), swapped = r[1].stats().get("os.migrations");
        double started = r[1].stats().get("policy.migration.started"), completed = r[1].stats().get("policy.migration.completed");
        SwapRecord swap = swapping.records().get(0);
        System.out.printf("migrations: %.0f without the swap, %.0f with it (the policy started %.0f, saw %.0f complete, %.0f queued); swap: %d ps, %s%n",
                all, swapped, started, completed, r[1].stats().get("policy.migration.queued"), swap.drainSimPs(), swap.state());
        assertEquals(1.0, r[1].metrics().get("swaps"), "the swap at 15 us took place");
        assertEquals(started, swapped, "every page moved is one the policy started before it left");
        assertTrue(swapped < all * 0.5, "the swap to none stopped migration: " + swapped + " of " + all);
        assertEquals(0.0, r[1].stats().get("policy.migration.queued"), "its queue left with it");
        assertEquals(0L, swap.drainSimPs(), "nothing drained: the copies in flight need no wait");
        assertTrue(started > completed, "copies were in flight at the swap (else this run does not show the point): " + started + " started, " + completed + " completed");
        assertTrue(swap.state().contains((long) (started - completed) + " page copies the old policy started still in flight"), swap.state());
    }

    /** The one thing a migration swap waits for: a launch the old policy holds back (its copies run the launch). */
    @Test
    void aSwapDuringCopyFirstsBulkCopyWaitsForTheLaunchAndChangesNothing() {
        List<ScriptedSwap> toNone = List.of(new ScriptedSwap(ScriptedSwap.When.TIME, 1_000_000, Slot.MIGRATION, new ScriptedSwap.Choice("none", Map.of())));
        Sim swapping = Sim.placement("ddr-only").with(Slot.MIGRATION, "copy-first");
        RunResult[] r = Sim.parallel(() -> run(Sim.placement("ddr-only").with(Slot.MIGRATION, "copy-first"), List.of()), () -> run(swapping, toNone));
        SwapRecord swap = swapping.records().get(0);
        double copyPs = r[0].stats().get("policy.migration.copy_time_ps");
        System.out.printf("copy-first: %.0f pages copied in %.0f ps, run %.0f ns; swapped to none at 1 us: drain %d ps, %s, run %.0f ns%n",
                r[0].stats().get("policy.migration.pages_copied"), copyPs, r[0].simTimeNs(), swap.drainSimPs(), swap.outcome(), r[1].simTimeNs());
        assertEquals("ok", swap.outcome());
        assertTrue(copyPs > 1_000_000, "the bulk copy outlasts the swap's time (else this run does not show the point): " + copyPs);
        assertEquals(copyPs - 1_000_000, swap.drainSimPs(), 2 * 1_000, "the swap waited until the copy launched kernel 0, no longer");
        assertEquals(r[0].stats().get("policy.migration.pages_copied"), r[1].stats().get("policy.migration.pages_copied"), "the bulk copy completed");
        assertEquals(r[0].simTimeNs(), r[1].simTimeNs(), "nothing was held: the same run");
    }

    /**
     * A swap that drains the memory system (interleave here) holds page copies as it holds the GPUs: the chunks already
     * read are written, the rest of each page waits for the swap. Without the hold, range expansion kept starting copies
     * from its queue and the drain lasted until the queue ran dry (26.7 us against 1.2 us with no migration policy; found
     * by a stress test of migration swaps).
     */
    @Test
    void aMemoryDrainHoldsPageCopiesInsteadOfWaitingForTheMigratorsQueue() {
        List<ScriptedSwap> toFine = List.of(new ScriptedSwap(ScriptedSwap.When.EPOCH, 2, Slot.INTERLEAVE, new ScriptedSwap.Choice("fine", Map.of())));
        Sim migrating = Sim.placement("ddr-only").with(Slot.MIGRATION, "range-expansion", "range", 128);
        Sim still = Sim.placement("ddr-only").with(Slot.MIGRATION, "none");
        RunResult[] r = Sim.parallel(() -> run(migrating, toFine), () -> run(still, toFine));
        SwapRecord withCopies = migrating.records().get(0), without = still.records().get(0);
        System.out.printf("interleave swap drain: %d ps with range expansion migrating (%.0f migrations), %d ps with none%n",
                withCopies.drainSimPs(), r[0].stats().get("os.migrations"), without.drainSimPs());
        assertEquals("ok", withCopies.outcome());
        assertTrue(r[0].stats().get("os.migrations") > 100, "pages migrated around the swap (else this run shows nothing)");
        assertTrue(withCopies.drainSimPs() < 3 * without.drainSimPs() + 2_000_000,
                "the drain waits for the copies' chunks in flight, not for the migrator's queue: " + withCopies.drainSimPs() + " ps");
        assertEquals(0.0, r[0].stats().get("os.migrations_in_flight"), "every copy held by the swap went on and finished");
        assertEquals(r[0].stats().get("policy.migration.started"), r[0].stats().get("os.migrations"), "and every copy started is one");
    }
}
