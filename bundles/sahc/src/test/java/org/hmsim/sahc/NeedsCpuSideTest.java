package org.hmsim.sahc;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/** Every coherence policy of the bundle acts on the CPU-GPU directory: a machine without a CPU side is refused. */
class NeedsCpuSideTest {
    @Test
    void aMachineWithoutACpuSideIsRefused() {
        RunFacts gpuOnly = new RunFacts(List.of(), 4096, 1, false, false, List.of());
        RunFacts apu = new RunFacts(List.of(), 4096, 1, false, true, List.of());
        for (PolicyProvider p : List.of(new SahcProvider(), new SahcTProvider(), new SahcAProvider(), new DirectoryProvider(), new IdealProvider())) {
            Params defaults = Params.validate(p.parameters(), java.util.Map.of());
            var e = assertThrows(IllegalArgumentException.class, () -> p.check(defaults, gpuOnly), p.name());
            assertTrue(e.getMessage().startsWith("coherence " + p.name() + " acts on CPU-GPU coherence, and this machine has no cpu: section"), e.getMessage());
            assertDoesNotThrow(() -> p.check(defaults, apu));
        }
    }
}
