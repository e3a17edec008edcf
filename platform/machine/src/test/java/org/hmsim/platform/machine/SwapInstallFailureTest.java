package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A swap whose new policy fails the run while it is being installed (a cta-scheduler asked for the running kernel's
 * blocks binds one to a GPU the machine lacks; a throttling policy's begin throws). Installing it is already using it, so
 * the swap happened: it was left out of swaps.csv, and the failure's context named the policy swapped in before it (a
 * tester's report: "policies swapped in before it: cta-scheduler=chunk@1.0.0(steal=true)", the working policy). Now it
 * is recorded as carried out, the context names it as the policy in force, and the errors name the policy and the pool.
 */
class SwapInstallFailureTest {
    private static final long EPOCH_PS = 1_000_000; // 1 us

    /** block-exclusive on the 4-GPU CODA machine: blocks run on every GPU (the grid launcher). */
    private static org.hmsim.api.workload.Workload grid() { return TestMachines.workload("block-exclusive", 1, "ctas", 512); }

    /** A cta-scheduler binding every block to GPU 7 (the machine has 4), as the tester's chunk with fault=bad-gpu. */
    private static CtaSchedulerPolicy bindsToGpu7() {
        return new CtaSchedulerPolicy() {
            @Override
            public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) {
                for (int i = 0; i < sms.size(); i++) if (canTake[i]) return i;
                return -1;
            }

            @Override
            public int boundGpu(int kernel, int cta) { return 7; }
        };
    }

    private static RunResult run(String machine, org.hmsim.api.workload.Workload w, SwappableProviders src) {
        Machine m = new Machine(TestMachines.machine(machine), src, 1, "swaps");
        SwapControl c = new SwapControl("swaps");
        for (Slot s : Slot.values()) c.setActive(s, src.describe(s), "classpath");
        try {
            return Simulation.run(m, new RunSpec("swaps", m.cfg, w, src, 1, EPOCH_PS, 0), new Swapper(m, src, src.scripted(), c, 1, "swaps"));
        } finally {
            src.records = c.records();
        }
    }

    @Test
    void aCtaSchedulerThatFailsAsItIsSwappedInIsRecordedAsTheSwapTheRunFailedUnder() {
        Hosts src = new Hosts(Slot.CTA_SCHEDULER, "fault=bad-gpu", real -> ctx -> bindsToGpu7());
        src.swap(new ScriptedSwap(When.TIME, 5 * EPOCH_PS, Slot.CTA_SCHEDULER, new Choice("round-robin", Map.of())));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run("coda", grid(), src));
        assertTrue(e.getMessage().matches("grid: the cta-scheduler policy round-robin@1\\.0\\.0\\(fault=bad-gpu\\) bound block \\d+ of kernel launch 0"
                + " \\(block-exclusive_kernel, counted from 0\\) to GPU 7; the GPUs are 0\\.\\.3 \\(-1: unbound\\)"), e.getMessage());

        assertEquals(1, src.records.size(), "the swap is in swaps.csv: " + src.records);
        SwapRecord rec = src.records.get(0);
        assertEquals("ok", rec.outcome(), "it took effect: the run failed under it");
        assertEquals(5 * EPOCH_PS, rec.simTimePs());
        assertEquals("round-robin@1.0.0(fault=bad-gpu)", rec.toWithParams());
        assertTrue(rec.state().contains(Swapper.INSTALL_FAILED + e), rec.state());

        RunFailureContext c = RunFailureContext.of(e);
        assertNotNull(c, "the failure carries its context");
        assertTrue(c.getMessage().contains("; policies swapped in before it (runs.csv names the ones the run started with):"
                + " cta-scheduler=round-robin@1.0.0(fault=bad-gpu) (at 5us; the run failed as it was installed);"), c.getMessage());
    }

    /** The tester's shell sequence: a working swap, then one that fails as it is installed; the context names the second. */
    @Test
    void theContextNamesThePolicyInForceNotTheOneSwappedInBeforeIt() {
        Hosts src = new Hosts(Slot.CTA_SCHEDULER, "fault=bad-gpu", real -> ctx -> bindsToGpu7());
        src.swap(new ScriptedSwap(When.TIME, 2 * EPOCH_PS, Slot.CTA_SCHEDULER, new Choice("round-robin", Map.of("x", "working"))));
        src.swap(new ScriptedSwap(When.TIME, 5 * EPOCH_PS, Slot.CTA_SCHEDULER, new Choice("round-robin", Map.of())));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run("coda", grid(), src));
        assertEquals(2, src.records.size(), src.records.toString());
        assertEquals(List.of("ok", "ok"), src.records.stream().map(SwapRecord::outcome).toList());
        String context = RunFailureContext.of(e).getMessage();
        assertTrue(context.contains(" cta-scheduler=round-robin@1.0.0(fault=bad-gpu) (at 5us; the run failed as it was installed);"), context);
        assertTrue(!context.contains("(at 2us)"), "the working policy is not the one in force: " + context);
    }

    /** Any slot whose install calls the policy: a throttling policy's begin. */
    @Test
    void aThrottlingPolicyWhoseBeginFailsIsRecordedAndItsStatisticsKept() {
        Hosts src = new Hosts(Slot.THROTTLING, "", real -> ctx -> new ThrottlingPolicy() {
            @Override
            public void begin(long nowPs) { throw new IllegalStateException("no begin today"); }
        });
        src.swap(new ScriptedSwap(When.TIME, 5 * EPOCH_PS, Slot.THROTTLING, new Choice("none", Map.of())));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> run("small", TestMachines.workload("stream", 1, "elements", 65536), src));
        assertEquals("no begin today", e.getMessage());
        assertEquals(1, src.records.size(), src.records.toString());
        assertEquals("ok", src.records.get(0).outcome());
        RunFailureContext c = RunFailureContext.of(e);
        assertTrue(c.getMessage().contains(" throttling=none@1.0.0 (at 5us; the run failed as it was installed);"), c.getMessage());
        assertTrue(c.partial() != null && c.partial().stats().get("gpu0.l2.slice0.misses") > 0, "its statistics up to the failure");
    }

    /** The policy a run starts with is named too, with its parameters as the run labels it. */
    @Test
    void aCtaSchedulerBindingToAGpuTheMachineLacksIsNamedWithItsParameters() {
        SwappableProviders src = new SwappableProviders() {
            @Override
            public Policy create(Slot slot, PolicyContext context) { return slot == Slot.CTA_SCHEDULER ? bindsToGpu7() : super.create(slot, context); }

            @Override
            public String label(Slot slot) { return slot == Slot.CTA_SCHEDULER ? "chunk@1.0.0(fault=bad-gpu)" : describe(slot); }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestMachines.run(TestMachines.machine("coda"), grid(), src));
        assertTrue(e.getMessage().startsWith("grid: the cta-scheduler policy chunk@1.0.0(fault=bad-gpu) bound block 0 of kernel launch 0 (block-exclusive_kernel, counted from 0) to GPU 7"),
                e.getMessage());
    }

    /** An interleave policy's channel outside the pool's names the pool. */
    @Test
    void aChannelOutsideThePoolNamesThePool() {
        SwappableProviders src = new SwappableProviders() {
            @Override
            public Policy create(Slot slot, PolicyContext context) {
                if (slot != Slot.INTERLEAVE) return super.create(slot, context);
                return new InterleavePolicy() {
                    @Override
                    public int channel(long paddr, int pool, int channels) { return channels; }

                    @Override
                    public long channelAddress(long paddr, int pool, int channels) { return paddr; }
                };
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 4096), src));
        assertTrue(e.getMessage().matches("interleave policy mapped 0x[0-9a-f]+ to channel (\\d+) of pool\\.\\S+, which has channels 0\\.\\.\\d+"),
                e.getMessage());
    }

    /** The baseline providers, whose target in one slot is shown with {@code params} and created by {@code create}. */
    private static class Hosts extends SwappableProviders {
        final Slot slot;
        final String params;
        final Function<Function<PolicyContext, Policy>, Function<PolicyContext, Policy>> create;

        Hosts(Slot slot, String params, Function<Function<PolicyContext, Policy>, Function<PolicyContext, Policy>> create) {
            this.slot = slot;
            this.params = params;
            this.create = create;
        }

        @Override
        public SwapTarget resolve(Slot s, String policy, Map<String, Object> p) {
            SwapTarget t = super.resolve(s, policy, Map.of());
            if (s != slot) return t;
            // the second swap of a pair (no parameters asked) is the failing one; one asked with parameters works
            return p.isEmpty() ? new SwapTarget(t.id(), t.bundle(), params, create.apply(t.factory()))
                    : new SwapTarget(t.id(), t.bundle(), Swapper.paramsText(p), t.factory());
        }
    }
}
