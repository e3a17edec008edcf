package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.hmsim.api.policy.AccessProfile;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.ProfiledPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.os.Allocation;
import org.junit.jupiter.api.Test;

/**
 * A container stopping under a run (Ctrl-C, the kernel bundle stopped) aborts it at its next epoch end: the run throws
 * {@link RunAbortedException} and leaves no result. A two-pass policy's profiling pass is a whole simulation of its own
 * and ends there too (it ran to completion first before a review found it).
 */
class RunAbortTest {

    /** Placement that keeps everything in pool 0 and wants the profiling pass; counts the profiles it was given. */
    static final class Profiled implements PolicyProvider {
        final AtomicInteger profiles = new AtomicInteger();

        @Override public Slot slot() { return Slot.PLACEMENT; }
        @Override public String name() { return "test-profiled"; }
        @Override public String description() { return "wants a profile"; }
        @Override public List<ParamSpec> parameters() { return List.of(); }

        @Override
        public Policy create(PolicyContext context, Params params) {
            return new Both() {
                @Override public int choosePool(long vpn, Allocation allocation, int gpu) { return 0; }
                @Override public void useProfile(AccessProfile profile) { profiles.incrementAndGet(); }
            };
        }

        interface Both extends PlacementPolicy, ProfiledPolicy {}
    }

    /** A policy source whose container stops as the run starts. */
    static final class Stopping extends ClasspathPolicies {
        Stopping(PolicyProvider... own) { super(own); }

        @Override
        public void started(SwapControl control) {
            super.started(control);
            control.abort();
        }
    }

    @Test
    void aStopEndsTheRunAtItsFirstEpochWithoutAResult() {
        MachineConfig m = TestMachines.machine("small");
        var e = assertThrows(RunAbortedException.class, () -> TestMachines.run(m, TestMachines.workload("stream", 1), new Stopping()));
        assertTrue(e.getMessage().contains("container stopped"), e.getMessage());
    }

    @Test
    void aStopAlsoEndsTheProfilingPass() {
        MachineConfig m = TestMachines.machine("small");
        Profiled p = new Profiled();
        RunResult whole = TestMachines.run(m, TestMachines.workload("stream", 1), new ClasspathPolicies(p).with(Slot.PLACEMENT, "test-profiled"));
        assertTrue(whole.simTimePs() > 0);
        assertEquals(1, p.profiles.get(), "an uninterrupted run profiles first");
        assertThrows(RunAbortedException.class, () -> TestMachines.run(m, TestMachines.workload("stream", 1),
                new Stopping(p).with(Slot.PLACEMENT, "test-profiled")));
        assertEquals(1, p.profiles.get(), "the stopped profiling pass handed no profile on");
    }
}
