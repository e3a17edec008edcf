package org.hmsim.baseline.throttling;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** A cap at or above the machine's is a note (validation refuses it where it caps nothing on any run of the study). */
    @Test
    void aCapAtOrAboveTheHardwareIsNotedNamingItAndTheMachinesCount() {
        RunFacts machine = facts(4, 8, 48);
        String n = provider.note(params("warps_per_sm", 64), machine);
        assertTrue(n != null && n.contains("warps_per_sm 64") && n.contains("48 warps per SM") && n.contains("caps nothing"), n);
        assertTrue(provider.note(params("warps_per_sm", 48), machine) != null, "the hardware's own count caps nothing either");
        assertTrue(provider.note(params("ctas_per_sm", 9), machine).contains("thread blocks per SM"));
        assertTrue(provider.note(params("sms_per_gpu", 5), machine).contains("SMs per GPU"));
        assertEquals(null, provider.note(params("warps_per_sm", 47), machine));
        assertEquals(null, provider.note(params("warps_per_sm", 64), facts(0, 0, 0)), "unknown geometry: the policy clamps");
        assertEquals(null, provider.note(Params.validate(provider.parameters(), Map.of()), machine), "0, the default, is the hardware's by name");
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
