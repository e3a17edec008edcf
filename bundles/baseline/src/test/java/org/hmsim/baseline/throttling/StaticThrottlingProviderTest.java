package org.hmsim.baseline.throttling;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/** {@code static}'s check: a cap above the machine's SMs or slots would limit nothing, so a study giving one is refused. */
class StaticThrottlingProviderTest {
    private final StaticThrottlingProvider provider = new StaticThrottlingProvider();

    @Test
    void aCapAboveTheHardwareIsRefusedNamingItAndTheMachinesCount() {
        RunFacts machine = facts(4, 8, 48);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> provider.check(params("warps_per_sm", 64), machine));
        assertTrue(e.getMessage().contains("warps_per_sm 64") && e.getMessage().contains("48 warps per SM"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> provider.check(params("ctas_per_sm", 9), machine));
        assertThrows(IllegalArgumentException.class, () -> provider.check(params("sms_per_gpu", 5), machine));
        assertDoesNotThrow(() -> provider.check(params("warps_per_sm", 48), machine), "the hardware's own count is a cap that acts on nothing but names it");
        assertDoesNotThrow(() -> provider.check(params("warps_per_sm", 64), facts(0, 0, 0)), "unknown geometry: the policy clamps");
    }

    @Test
    void everyCapDefaultsToTheHardwares() {
        Params p = Params.validate(provider.parameters(), Map.of());
        for (String cap : List.of("sms_per_gpu", "ctas_per_sm", "warps_per_sm")) assertEquals(0, p.getInt(cap), cap);
    }

    private Params params(String name, int value) { return Params.validate(provider.parameters(), Map.of(name, value)); }

    private static RunFacts facts(int sms, int ctas, int warps) {
        return new RunFacts(List.<PoolInfo>of(), 4096, 1, false, false, List.of(), 1, false, sms, ctas, warps);
    }
}
