package org.hmsim.bwaware.placement;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.RunFacts;
import org.junit.jupiter.api.Test;

/** A given hotness must name the workload's allocations: a misspelt one silently left that allocation cold (CO). */
class HintsChecksTest {
    private static final List<PoolInfo> POOLS = List.of(new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 1L << 30),
            new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 1L << 30));
    private final HintsPlacementProvider hints = new HintsPlacementProvider();
    private final Params misspelt = Params.validate(hints.parameters(), Map.of("source", "given", "hotness", "grap_mask=3,cost=1"));

    @Test
    void aHotnessNamingNoAllocationIsRefused() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> hints.check(misspelt, new RunFacts(POOLS, 4096, 1, false, false, List.of("graph_mask", "cost"))));
        assertEquals("parameter 'hotness' names 'grap_mask', which the workload does not allocate (its allocations: graph_mask, cost)", e.getMessage());
        Params right = Params.validate(hints.parameters(), Map.of("source", "given", "hotness", "graph_mask=3,cost=1"));
        assertDoesNotThrow(() -> hints.check(right, new RunFacts(POOLS, 4096, 1, false, false, List.of("graph_mask", "cost"))));
    }

    /** Swapped into a live run (sim:swap), whose allocations exist: the policy refuses a misspelt name as it is created. */
    @Test
    void aSwapIntoALiveRunChecksTheNamesAgainstItsAllocations() {
        java.util.List<org.hmsim.api.os.Allocation> live = List.of(
                new org.hmsim.api.os.Allocation(0, "graph_mask", 1L << 32, 4096, org.hmsim.api.os.AllocationHint.NONE, false));
        var memory = (org.hmsim.api.os.MemoryManager) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {org.hmsim.api.os.MemoryManager.class}, (proxy, m, args) -> m.getName().equals("allocations") ? live : null);
        var context = (org.hmsim.api.policy.PolicyContext) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {org.hmsim.api.policy.PolicyContext.class}, (proxy, m, args) -> m.getName().equals("memory") ? memory : null);
        var e = assertThrows(IllegalArgumentException.class, () -> hints.create(context, misspelt));
        assertEquals("parameter 'hotness' names 'grap_mask', which the workload does not allocate (its allocations: graph_mask)", e.getMessage());
    }

    @Test
    void aHotnessIgnoredByTheSourceIsNotChecked() {
        Params profiled = Params.validate(hints.parameters(), Map.of("source", "profile", "hotness", "grap_mask=3"));
        assertDoesNotThrow(() -> hints.check(profiled, new RunFacts(POOLS, 4096, 1, false, false, List.of("graph_mask"))));
    }

    @Test
    void withoutTheWorkloadTheNamesWaitForTheRun() {
        // a swap typed into a live shell: the allocations are not at hand, the policy refuses the name when it meets them
        assertDoesNotThrow(() -> hints.check(misspelt, new RunFacts(POOLS, 4096, 1, false, false, List.of())));
        var e = assertThrows(IllegalArgumentException.class,
                () -> HintsPlacement.checkNames(HintsPlacement.parse("grap_mask=3").keySet(), List.of("graph_mask")));
        assertEquals("parameter 'hotness' names 'grap_mask', which the workload does not allocate (its allocations: graph_mask)", e.getMessage());
    }
}
