package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A pool's {@code controller_latency} (GPGPU-Sim's {@code -dram_latency}): absent and 0 are the same
 * machine, number for number; a value delays every DRAM response.
 */
class ControllerLatencyTest {
    private static RunResult run(MachineConfig m) {
        return TestMachines.run(m, TestMachines.workload("stream", 1, "elements", 16384), new ClasspathPolicies());
    }

    @Test
    void absentAndZeroGiveIdenticalRuns() {
        MachineConfig absent = TestMachines.machine("small");
        MachineConfig zero = TestMachines.machine("small", "pools.0.controller_latency", 0, "pools.1.controller_latency_cycles", 0);
        assertEquals(0, absent.pools().get(0).controllerLatencyPs());
        RunResult a = run(absent), z = run(zero);
        assertEquals(a.simTimePs(), z.simTimePs());
        assertEquals(a.stats(), z.stats(), "every statistic identical");
    }

    @Test
    void aControllerLatencySlowsALatencyBoundRun() {
        MachineConfig m = TestMachines.machine("small", "pools.0.controller_latency_cycles", 100, "pools.1.controller_latency", "50ns");
        assertEquals(71_429, m.pools().get(0).controllerLatencyPs(), "100 cycles of the 1.4 GHz GPU");
        assertEquals(50_000, m.pools().get(1).controllerLatencyPs());
        RunResult plain = run(TestMachines.machine("small")), slow = run(m);
        assertTrue(slow.simTimePs() > plain.simTimePs(), slow.simTimePs() + " vs " + plain.simTimePs());
        assertEquals(plain.stats().get("pool.gddr.bytes"), slow.stats().get("pool.gddr.bytes"), "same traffic, later");
        // a pointer chase (one load in flight) pays the controller latency once per hop
        int hops = 500;
        org.hmsim.api.workload.Workload chase = TestMachines.workload("pointer-chase", 1, "footprint", "4MB", "hops", hops, "warps", 1);
        RunResult chasePlain = TestMachines.run(TestMachines.machine("small"), chase, new ClasspathPolicies());
        RunResult chaseSlow = TestMachines.run(m, TestMachines.workload("pointer-chase", 1, "footprint", "4MB", "hops", hops, "warps", 1), new ClasspathPolicies());
        double perHop = (double) (chaseSlow.simTimePs() - chasePlain.simTimePs()) / hops;
        System.out.printf("pointer chase: %d ps plain, %d ps with the controller latency: %.0f ps more per hop%n", chasePlain.simTimePs(), chaseSlow.simTimePs(), perHop);
        assertEquals(71_429, perHop, 71_429 * 0.01, "each dependent load waits the GDDR controller's 100 cycles once");
    }

    @Test
    void badValuesAreNamed() {
        ConfigException both = assertThrows(ConfigException.class,
                () -> TestMachines.machine("small", "pools.1.controller_latency", "10ns", "pools.1.controller_latency_cycles", 10));
        assertTrue(both.getMessage().contains("pools.1.controller_latency"), both.getMessage());
        ConfigException neg = assertThrows(ConfigException.class, () -> TestMachines.machine("small", "pools.0.controller_latency_cycles", -1));
        assertTrue(neg.getMessage().contains("pools.0.controller_latency_cycles"), neg.getMessage());
        ConfigException word = assertThrows(ConfigException.class, () -> TestMachines.machine("small", "pools.0.controller_latency", "slow"));
        assertTrue(word.getMessage().contains("pools.0.controller_latency"), word.getMessage());
    }
}
