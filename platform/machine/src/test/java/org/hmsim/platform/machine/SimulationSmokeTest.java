package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class SimulationSmokeTest {

    @Test
    void streamRunsToCompletionAndMovesItsFootprint() {
        MachineConfig m = TestMachines.machine("small");
        RunResult r = TestMachines.run(m, TestMachines.workload("stream", 1), new ClasspathPolicies());
        assertTrue(r.simTimePs() > 0);
        assertTrue(r.metrics().get("pool.gddr.bytes") > 0, r.metrics().toString());
        assertEquals(0.0, r.metrics().get("pool.ddr.bytes"), "local placement keeps everything in GDDR");
        assertFalse(r.seriesRows().isEmpty());
        System.out.println(r.metrics());
    }

    @Test
    void sameSeedSameNumbers() {
        MachineConfig m = TestMachines.machine("small");
        RunResult a = TestMachines.run(m, TestMachines.workload("bfs", 3), new ClasspathPolicies());
        RunResult b = TestMachines.run(m, TestMachines.workload("bfs", 3), new ClasspathPolicies());
        assertEquals(a.stats(), b.stats());
        assertEquals(a.simTimePs(), b.simTimePs());
    }
}
