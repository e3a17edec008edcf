package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.policy.Params;
import org.junit.jupiter.api.Test;

/**
 * NT's parameters: on by default (a comparison point, not one of the classifier's choices), and no way to turn work
 * conservation off: thread blocks are dispatched to throttled SMs too, and with no epochs nothing else would release
 * them (a review's runs with {@code work_conserving: false} deadlocked on GESUMMV and ATAX).
 */
class NaiveThrottlingProviderTest {
    @Test
    void onByDefaultAndAlwaysWorkConserving() {
        var spec = new NaiveThrottlingProvider().parameters();
        assertEquals("on", Params.validate(spec, Map.of()).getString("mode"));
        var e = assertThrows(IllegalArgumentException.class, () -> Params.validate(spec, Map.of("work_conserving", false)));
        assertTrue(e.getMessage().contains("work_conserving"), e.getMessage());
        assertEquals("auto", Params.validate(new MemoryAwareThrottlingProvider().parameters(), Map.of()).getString("mode"), "MT stays the classifier's");
    }
}
