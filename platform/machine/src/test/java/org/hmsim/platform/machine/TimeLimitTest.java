package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A run that reaches its simulated-time limit ({@code max_time}) fails, saying where it was in words a study uses, and
 * carries its statistics up to the limit (a review found them thrown away and the limit printed in ps).
 */
class TimeLimitTest {
    @Test
    void aRunStoppedByItsTimeLimitCarriesItsStatisticsToTheLimit() {
        MachineConfig cfg = Presets.machine("small");
        RunSpec whole = new RunSpec("t", cfg, TestMachines.workload("stream", 1, "elements", 1 << 20), new ClasspathPolicies(), 1, 1_000_000, 0);
        RunResult full = Simulation.run(whole);
        long limit = full.simTimePs() / 2 / 1_000_000 * 1_000_000; // a whole number of us, half way
        RunSpec capped = new RunSpec("t", cfg, TestMachines.workload("stream", 1, "elements", 1 << 20), new ClasspathPolicies(), 1, 1_000_000, limit);
        SimTimeLimitException e = assertThrows(SimTimeLimitException.class, () -> Simulation.run(capped));
        assertTrue(e.getMessage().contains("max_time = " + limit / 1_000_000 + "us reached in kernel launch 1 of 1"), e.getMessage());
        RunResult part = e.partial();
        assertEquals(limit, part.simTimePs(), "the statistics are at the limit");
        double issued = part.stats().get("gpu0.sm0.issued"), all = full.stats().get("gpu0.sm0.issued");
        assertTrue(issued > 0.2 * all && issued < 0.8 * all, "about half the work done: " + issued + " of " + all);
        assertEquals(limit / 1_000_000, part.seriesRows().size(), "one series row per 1 us epoch up to the limit");
    }
}
