package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

/**
 * The simulation watchdog: the epoch clock keeps the event queue busy, so a deadlocked run used to tick
 * epochs until its time limit. A run in which nothing retires or completes for the machine's
 * {@code watchdog:} interval now fails, naming what still holds work.
 */
class WatchdogTest {
    private static final long NO_LIMIT = 0;

    private static IllegalStateException deadlock(MachineConfig m, org.hmsim.api.workload.Workload w, PolicySource p) {
        return assertThrows(IllegalStateException.class, () -> Simulation.run(new RunSpec("wd", m, w, p, 1, 1_000_000, NO_LIMIT)));
    }

    /**
     * A DRAM scheduler whose ranks prefer requests whose row is closed opens and closes rows for ever: a livelock, which
     * the message names by the ACTs that served nothing (a trial's plugin was told of SMs and MSHRs only).
     */
    @Test
    void aDramSchedulerThatKeepsClosingRowsIsNamedByItsActs() {
        org.hmsim.api.policy.DramSchedulerPolicy closedFirst = (pool, channel, banks) -> (r, bank, rowHit) -> rowHit ? 1 : 0;
        MachineConfig m = TestMachines.machine("small", "watchdog", "200us");
        // saxpy's two input streams lie in different rows of the same banks: each row closes before its hit is served
        org.hmsim.api.workload.Workload saxpy = org.hmsim.platform.workloads.BuiltinWorkloads.create(
                org.hmsim.platform.workloads.file.WorkloadFile.load(Presets.examples().resolve("workloads/saxpy.yaml")), 1);
        IllegalStateException e = deadlock(m, saxpy, new OnePolicy(Slot.DRAM_SCHEDULER, closedFirst, "closed-first"));
        String s = e.getMessage();
        assertTrue(s.matches("(?s).*DRAM \\S+ queues \\d+ requests and issued \\d+ ACTs without serving one \\(a livelock: the dram-scheduler slot's ranks.*"), s);
    }

    @Test
    void aPolicyThatNeverAnswersFailsTheRunInsteadOfTickingForever() {
        // a migration policy that never lets kernel 1 start: nothing in flight, nothing to do
        MigrationPolicy stuck = new MigrationPolicy() {
            @Override
            public void onKernelLaunch(int kernel, Runnable proceed) {
                if (kernel == 0) proceed.run();
            }
        };
        MachineConfig m = TestMachines.machine("small", "watchdog", "200us");
        assertEquals(200_000_000L, m.watchdogPs());
        IllegalStateException e = deadlock(m, TestMachines.workload("stream", 1, "elements", 8192, "iterations", 2), new OnePolicy(Slot.MIGRATION, stuck, "never-answers"));
        String s = e.getMessage();
        assertTrue(s.contains("deadlocked") && s.contains("watchdog 200.000 us") && s.contains("'watchdog'"), s);
        assertTrue(s.contains("in kernel launch 2 of 2 (counted from 1") && s.contains("held by the migration policy"), s);
        assertTrue(s.contains("Still holding work: nothing"), s);
    }

    /** A second proceed started the kernel twice and failed as "kernel ... is still running", naming no contract (a trial). */
    @Test
    void aMigrationPolicyThatProceedsTwiceIsNamed() {
        MigrationPolicy twice = new MigrationPolicy() {
            @Override
            public void onKernelLaunch(int kernel, Runnable proceed) {
                proceed.run();
                proceed.run();
            }
        };
        IllegalStateException e = deadlock(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 8192), new OnePolicy(Slot.MIGRATION, twice, "never-answers"));
        assertTrue(e.getMessage().contains("the migration slot's policy ran proceed twice for kernel launch 0"), e.getMessage());
    }

    /** A cta-scheduler that never places a block holds no request: the watchdog said "nothing" (a researcher's trial). */
    @Test
    void blocksACtaSchedulerNeverPlacesAreNamed() {
        org.hmsim.api.policy.CtaSchedulerPolicy never = new org.hmsim.api.policy.CtaSchedulerPolicy() {
            @Override
            public int pickSm(int kernel, int cta, java.util.List<? extends org.hmsim.api.machine.CoreView> sms, boolean[] canTake) { return -1; }
        };
        MachineConfig m = TestMachines.machine("small", "watchdog", "200us");
        IllegalStateException e = deadlock(m, TestMachines.workload("stream", 1, "elements", 8192), new OnePolicy(Slot.CTA_SCHEDULER, never, "never-answers"));
        assertTrue(e.getMessage().matches(".*; [1-9][0-9]* of its thread blocks not dispatched \\(the cta-scheduler policy has not placed them.*"), e.getMessage());
    }

    @Test
    void smsWaitingOnAFaultThatIsNeverServedAreNamed() {
        // an APU whose coherence policy charges the GPU's first permission check ~550 s: the whole GPU
        // stalls with warps resident, a deadlock in all but name. The default watchdog (10 ms) catches it.
        CoherencePolicy never = new CoherencePolicy() {
            @Override
            public long checkAccess(int agent, long page, boolean write) { return agent == AGENT_CPU ? 0 : 1L << 40; }
        };
        MachineConfig m = TestMachines.machine("sahc", "gpu.sms", 2, "gpu.l2.slices", 4);
        assertEquals(MachineConfig.DEFAULT_WATCHDOG_PS, m.watchdogPs());
        long t0 = System.nanoTime();
        IllegalStateException e = deadlock(m, TestMachines.workload("apu-bitonic", 1, "elements", 4096, "iterations", 1), new OnePolicy(Slot.COHERENCE, never, "never-answers"));
        String s = e.getMessage();
        assertTrue(s.contains("deadlocked") && s.contains("watchdog 10.000 ms") && s.contains("in kernel launch 1 of 1"), s);
        assertTrue(s.matches(".*gpu0 SMs with warps waiting: sm0 \\([1-9][0-9]* warps.*"), s);
        assertTrue((System.nanoTime() - t0) / 1e9 < 30, "found within seconds of wall time");
    }

    @Test
    void watchdogIsAMachineFieldThatZeroTurnsOffAndBadValuesAreNamed() {
        assertEquals(0, TestMachines.machine("small", "watchdog", 0).watchdogPs());
        // off: the stuck run of the first test ticks epochs until its time limit (twice the default interval) instead of
        // failing as deadlocked
        MigrationPolicy stuck = new MigrationPolicy() {
            @Override
            public void onKernelLaunch(int kernel, Runnable proceed) {
                if (kernel == 0) proceed.run();
            }
        };
        IllegalStateException off = assertThrows(IllegalStateException.class, () -> Simulation.run(new RunSpec("wd",
                TestMachines.machine("small", "watchdog", 0), TestMachines.workload("stream", 1, "elements", 8192, "iterations", 2),
                new OnePolicy(Slot.MIGRATION, stuck, "never-answers"), 1, 1_000_000, 2 * MachineConfig.DEFAULT_WATCHDOG_PS)));
        assertTrue(off instanceof SimTimeLimitException, "watchdog 0 never calls the run deadlocked: " + off.getMessage());
        ConfigException e = assertThrows(ConfigException.class, () -> TestMachines.machine("small", "watchdog", "soon"));
        assertTrue(e.getMessage().contains("watchdog"), e.getMessage());
        // a legitimate run is untouched by a watchdog much shorter than the run (though not shorter than a
        // cold start's first page walks and DRAM round trip: 100 ns trips on the first miss)
        RunResult r = Simulation.run(new RunSpec("wd", TestMachines.machine("small", "watchdog", "2us"),
                TestMachines.workload("stream", 1, "elements", 65536), new ClasspathPolicies(), 1, 1_000_000, NO_LIMIT));
        assertTrue(r.simTimePs() > 4_000_000L, "the run outlasts the watchdog interval: " + r.simTimePs());
    }
}
