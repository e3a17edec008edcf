package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.Test;

/** A store-only run's runs.csv read l1_hit_rate and l2_hit_rate 0, hit rates it never had (a cache-validation trial); an unused pool's row_hit_rate too. */
class HitRatesWithoutLoadsTest {
    private static RunResult run(String step) {
        var file = WorkloadFile.parse("""
                name: w
                allocations:
                  - {name: a, size: 64KB}
                kernels:
                  - name: k
                    grid: 8
                    block: 256
                    steps:
                      - %s: {alloc: a, index: "cta*256 + tid"}
                """.formatted(step), "w.yaml");
        return TestMachines.run(TestMachines.machine("small"), file.create(Params.validate(file.parameters(), Map.of()), 1), new ClasspathPolicies());
    }

    @Test
    void hitRatesAreEmptyWhereNoLoadReachedTheCache() {
        RunResult stores = run("store");
        assertFalse(stores.metrics().containsKey("l1_hit_rate"), stores.metrics().toString());
        assertFalse(stores.metrics().containsKey("l2_hit_rate"), stores.metrics().toString());
        assertTrue(stores.stats().get("gpu0.l2.slice0.write_misses") + stores.stats().get("gpu0.l2.slice0.write_hits") > 0, "the case: stores reached the L2");
        RunResult loads = run("load");
        // local placement leaves the CPU's DDR unused: no row-hit rate there either (it read 0, a trial)
        assertEquals(0.0, loads.metrics().get("pool.ddr.bytes"), "the case");
        assertFalse(loads.metrics().containsKey("pool.ddr.row_hit_rate"), loads.metrics().toString());
        assertTrue(loads.metrics().containsKey("pool.gddr.row_hit_rate"));
        assertEquals(0.0, loads.metrics().get("l1_hit_rate"), "every load a first touch of its sector");
        assertTrue(loads.metrics().containsKey("l2_hit_rate"));
    }
}
