package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * A pool's {@code jitter} (Alameldeen and Wood's perturbation: a uniform 0..jitter added to each DRAM response, drawn from
 * the run's seed) makes replicated seeds differ where the model is otherwise deterministic, so a study's whiskers show
 * how far a number moves under timing it cannot fix (BICG at 50 % moved 1.7-3.2 ms over +-6 L2 cycles). The same seed
 * gives the same run; without jitter every seed gives the same run of a workload that draws nothing.
 */
class DramJitterTest {
    private static RunResult run(String jitter, long seed) {
        MachineConfig m = jitter == null ? TestMachines.machine("small") : TestMachines.machine("small", "pools.0.jitter", jitter);
        Workload w = TestMachines.workload("stream", seed, "elements", 65536);
        return Simulation.run(new RunSpec("jitter", m, w, new ClasspathPolicies(), seed, 1_000_000, 0));
    }

    @Test
    void seedsDifferUnderJitterAndOnlyThere() {
        RunResult plain1 = run(null, 1), plain2 = run(null, 2);
        assertEquals(plain1.stats(), plain2.stats(), "the stream draws nothing: without jitter every seed is the same run");
        RunResult j1 = run("4ns", 1), j1again = run("4ns", 1), j2 = run("4ns", 2);
        assertEquals(j1.stats(), j1again.stats(), "the same seed, the same run");
        assertNotEquals(j1.simTimePs(), j2.simTimePs(), "another seed, other draws");
        double spread = Math.abs(j1.simTimePs() - plain1.simTimePs()) / (double) plain1.simTimePs();
        assertTrue(spread < 0.05, "a few ns per response moves a stream by little: " + spread);
        assertTrue(plain1.stats().get("pool.gddr.reads") > 0);
        assertEquals(plain1.stats().get("pool.gddr.reads"), j1.stats().get("pool.gddr.reads"), "the same work");
        assertThrows(RuntimeException.class, () -> TestMachines.machine("small", "pools.0.jitter", "2us"), "beyond 1 us is refused");
        MachineConfig all = TestMachines.machine("small", "jitter", "4ns");
        assertEquals(4000, all.pools().get(0).jitterPs(), "a machine-wide jitter reaches every pool");
        assertEquals(4000, all.pools().get(1).jitterPs());
        assertEquals(0, TestMachines.machine("small", "jitter", "4ns", "pools.1.jitter", "0ns").pools().get(1).jitterPs(), "a pool's own wins");
        assertThrows(RuntimeException.class, () -> TestMachines.machine("small", "jitter", "-1ns"));
    }
}
