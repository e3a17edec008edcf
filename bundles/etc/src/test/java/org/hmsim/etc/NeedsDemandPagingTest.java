package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/** PE, MT, CC and NT act on demand paging: a machine without a uvm: section is refused (its runs did nothing). */
class NeedsDemandPagingTest {
    @Test
    void aMachineWithoutDemandPagingIsRefused() {
        RunFacts plain = new RunFacts(List.of(), 4096, 1, false, false, List.of());
        RunFacts paged = new RunFacts(List.of(), 65536, 1, true, false, List.of());
        for (PolicyProvider p : List.of(new ProactiveEvictionProvider(), new MemoryAwareThrottlingProvider(), new CapacityCompressionProvider(), new NaiveThrottlingProvider())) {
            Params defaults = Params.validate(p.parameters(), java.util.Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(defaults, plain), p.slot().id());
            assertTrue(e.getMessage().contains("this machine has no uvm: section"), e.getMessage());
            assertDoesNotThrow(() -> p.check(defaults, paged));
        }
    }
}
