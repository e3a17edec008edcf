package org.hmsim.bwaware.migration;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.bwaware.placement.HintsPlacementProvider;
import org.junit.jupiter.api.Test;

/**
 * A parameter given where another one makes it act on nothing is refused at validation: range-expansion's
 * balance_target with balancing off, hints' hotness with a source that does not read it (both swept with no change to
 * any statistic; review of silent inputs).
 */
class UnusedParametersTest {
    private static void check(PolicyProvider p, Map<String, ?> given) { p.check(Params.validate(p.parameters(), given)); }

    @Test
    void balancingSettingsNeedBalancing() {
        var range = new RangeExpansionProvider();
        var e = assertThrows(IllegalArgumentException.class, () -> check(range, Map.of("balance_target", 0.5)));
        assertTrue(e.getMessage().startsWith("parameter 'balance_target' sets bandwidth balancing (§2.7), and balance is false"), e.getMessage());
        assertDoesNotThrow(() -> check(range, Map.of("balance_target", 0.5, "balance", true)));
        assertDoesNotThrow(() -> check(new BandwidthBalancingProvider(), Map.of("balance_target", 0.5))); // on by default there
        assertThrows(IllegalArgumentException.class, () -> check(new ThresholdProvider(), Map.of("balance_window", 4)));
    }

    @Test
    void hintsHotnessNeedsTheGivenSource() {
        var hints = new HintsPlacementProvider();
        var e = assertThrows(IllegalArgumentException.class, () -> check(hints, Map.of("hotness", "graph_mask=3")));
        assertTrue(e.getMessage().startsWith("parameter 'hotness' is read only with source: given (this source is "), e.getMessage());
        assertDoesNotThrow(() -> check(hints, Map.of("hotness", "graph_mask=3", "source", "given")));
    }
}
