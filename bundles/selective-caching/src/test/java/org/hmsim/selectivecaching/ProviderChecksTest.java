package org.hmsim.selectivecaching;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/** What selective-caching refuses at validation, before a run would be labelled with a policy that did nothing. */
class ProviderChecksTest {
    /** Its rules are about CPU-homed lines: refused where no pool is the CPU's; read-only caching re-arms at one program's launch: refused in a mix. */
    @Test
    void refusedWhereItWouldActOnNothingOrOnEveryProgram() {
        var provider = new SelectiveCachingProvider();
        var gpuOnly = List.of(new PoolInfo(0, "hbm0", "HBM2", 0, 8, 256e9, 1L << 33));
        var withCpu = List.of(gpuOnly.get(0), new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 1L << 34));
        var defaults = Params.validate(provider.parameters(), Map.of());
        var e = assertThrows(IllegalArgumentException.class,
                () -> provider.check(defaults, new RunFacts(gpuOnly, 4096, 1, false, false, List.of())));
        assertTrue(e.getMessage().contains("no pool attached to the CPU"), e.getMessage());
        assertDoesNotThrow(() -> provider.check(defaults, new RunFacts(withCpu, 4096, 1, false, false, List.of())));
        var readOnly = Params.validate(provider.parameters(), Map.of("read_only", true));
        var mix = new RunFacts(withCpu, 4096, 1, false, false, List.of(), 1, true);
        var m = assertThrows(IllegalArgumentException.class, () -> provider.check(readOnly, mix));
        assertTrue(m.getMessage().startsWith("selective-caching with read_only makes CPU pages read-only again"), m.getMessage());
        assertDoesNotThrow(() -> provider.check(defaults, mix));
    }

    /** gpu_fault is the cost of a write fault on a read-only page: given without read_only it would act on nothing (review of silent inputs). */
    @Test
    void gpuFaultIsRefusedWithoutReadOnly() {
        var provider = new SelectiveCachingProvider();
        var e = assertThrows(IllegalArgumentException.class, () -> provider.check(Params.validate(provider.parameters(), Map.of("gpu_fault", 0L))));
        assertTrue(e.getMessage().startsWith("parameter 'gpu_fault' is the cost of a GPU write fault on a read-only CPU page, and read_only is false"), e.getMessage());
        assertDoesNotThrow(() -> provider.check(Params.validate(provider.parameters(), Map.of("gpu_fault", 0L, "read_only", true))));
        assertDoesNotThrow(() -> provider.check(Params.validate(provider.parameters(), Map.of())));
    }
}
