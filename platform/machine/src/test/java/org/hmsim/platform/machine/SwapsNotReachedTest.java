package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/** Scripted swaps whose time or epoch lies after the run's end are counted, so a study can say they never came. */
class SwapsNotReachedTest {
    private static RunResult run(ScriptedSwap... swaps) {
        SwappableProviders p = new SwappableProviders();
        for (ScriptedSwap s : swaps) p.swap(s);
        return TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 16384), p);
    }

    private static ScriptedSwap at(When when, long value) { return new ScriptedSwap(when, value, Slot.PLACEMENT, new Choice("interleave", Map.of())); }

    @Test
    void swapsDueAfterTheEndAreCountedAndTheOthersNot() {
        long end = run().simTimePs();
        // the epoch of TestMachines.run is 1 us
        long late = 10 * (end / 1_000_000 + 1); // epochs: well after the end, whatever the swaps do to the run's length
        RunResult r = run(at(When.TIME, end / 4), at(When.TIME, late * 1_000_000), at(When.EPOCH, late), at(When.EPOCH, 1),
                new ScriptedSwap(When.EVERY_EPOCHS, late, Slot.PLACEMENT, java.util.List.of(new Choice("local", Map.of()), new Choice("interleave", Map.of())), "script"));
        assertEquals(3.0, r.stats().get("swap.scripted_not_reached"), "the time after the end, the epoch after it and the every-N whose first point is after it");
        assertEquals(3.0, r.metrics().get("swaps_not_reached"));
        assertEquals(2.0, r.metrics().get("swaps"), "the two before the end came");
    }

    @Test
    void aRunWhoseSwapsAllCameHasNoSuchStatistic() {
        RunResult r = run(at(When.KERNEL, 0), at(When.EPOCH, 1));
        assertFalse(r.stats().containsKey("swap.scripted_not_reached"), "its statistics are those of the run without the swaps");
        assertFalse(r.metrics().containsKey("swaps_not_reached"));
    }
}
