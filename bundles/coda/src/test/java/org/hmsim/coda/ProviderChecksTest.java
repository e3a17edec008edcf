package org.hmsim.coda;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/** What CODA's providers refuse at validation, against a run's machine. */
class ProviderChecksTest {
    private static RunFacts machine(long pageBytes) { return new RunFacts(List.of(), pageBytes, 4, false, false, List.of("a")); }

    @Test
    void aSpreadBeyondThePageIsRefusedBeforeTheRun() {
        var coda = new CodaInterleaveProvider();
        Params big = Params.validate(coda.parameters(), Map.of("spread", 8192));
        // alone the value is a valid power of two; only the machine's page makes it too large
        assertDoesNotThrow(() -> coda.check(big));
        var e = assertThrows(IllegalArgumentException.class, () -> coda.check(big, machine(4096)));
        assertEquals("parameter 'spread' (8192 B) is larger than the machine's page (4096 B)", e.getMessage());
        assertDoesNotThrow(() -> coda.check(big, machine(8192)));
        assertDoesNotThrow(() -> coda.check(Params.validate(coda.parameters(), Map.of()), machine(4096)));
    }

    @Test
    void migrateOnTouchRefusesAMachineWithACpuSide() {
        var mot = new MigrateOnTouchProvider();
        Params p = Params.validate(mot.parameters(), Map.of());
        assertThrows(IllegalArgumentException.class, () -> mot.check(p, new RunFacts(List.of(), 4096, 4, false, true, List.of())));
        assertDoesNotThrow(() -> mot.check(p, machine(4096)));
    }

    /**
     * Nor one with demand paging, whose driver owns the GPU's frames: such a run passed validation and failed mid-way ("page
     * ... could not be mapped in GPU memory"), found by a stress test of migration swaps.
     */
    @Test
    void migrateOnTouchRefusesAMachineWithDemandPaging() {
        var mot = new MigrateOnTouchProvider();
        Params p = Params.validate(mot.parameters(), Map.of());
        var e = assertThrows(IllegalArgumentException.class, () -> mot.check(p, new RunFacts(List.of(), 4096, 1, true, false, List.of())));
        assertTrue(e.getMessage().contains("uvm: section"), e.getMessage());
    }

    /** Affinity and contiguous bind blocks over every GPU: a mix's program has one, so both are refused for a mix (seed 004 §6.5). */
    @Test
    void bindingCtaSchedulersAreRefusedForAMix() {
        RunFacts mix = new RunFacts(List.of(), 4096, 4, false, false, List.of("p0.a", "p1.a"), 2);
        for (var provider : List.of(new AffinityCtaProvider(), new ContiguousCtaProvider())) {
            Params p = Params.validate(provider.parameters(), Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> provider.check(p, mix));
            assertEquals(true, e.getMessage().startsWith(provider.name() + " binds each block") && e.getMessage().contains("mix of 2 programs"), e.getMessage());
            assertDoesNotThrow(() -> provider.check(p, machine(4096)));
            // a mix of one program is confined to GPU 0 too (it passed validation and failed at its first launch)
            RunFacts alone = new RunFacts(List.of(), 4096, 4, false, false, List.of("p0.a"), 1, true);
            var one = assertThrows(IllegalArgumentException.class, () -> provider.check(p, alone));
            assertEquals(true, one.getMessage().contains("mix of 1 program, confined to GPU 0"), one.getMessage());
        }
    }
}
