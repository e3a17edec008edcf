package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A swap at time 0 ({@code at: 0ns}, and a {@code follow: highest-ranked} slot's provider already installed) comes before
 * anything issues: the run is the run that starts on the target. It used to fire once the first kernel had launched at
 * time 0, so the cta-scheduler the run was leaving placed the first wave of blocks (a 4-GPU affinity run swapped to
 * round-robin at 0 kept 28, 28, 4 and 4 blocks per GPU against round-robin's 16 each: 13.3 us against 7.7 us).
 */
class SwapAtTimeZeroTest {
    private static final long EPOCH = 1_000_000; // 1 us

    /** A cta-scheduler that counts how often it is asked (first SM with room). */
    static final class CountingCta implements CtaSchedulerPolicy {
        int launches, picks;

        @Override public void onKernelLaunch(int kernel, int ctas, int warpsPerCta) { launches++; }

        @Override public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) {
            picks++;
            for (int i = 0; i < canTake.length; i++) if (canTake[i]) return i;
            return -1;
        }
    }

    private static RunResult run(SwappableProviders src, Workload w) {
        Machine m = new Machine(TestMachines.machine("small"), src, 1, "zero");
        SwapControl control = new SwapControl("zero");
        for (Slot s : Slot.values()) control.setActive(s, src.describe(s), "classpath");
        RunResult r = Simulation.run(m, new RunSpec("zero", m.cfg, w, src, 1, EPOCH, 0), new Swapper(m, src, src.scripted(), control, 1, "zero"));
        src.records = control.records();
        return r;
    }

    @Test
    void aSwapAtTimeZeroComesBeforeTheFirstLaunch() {
        CountingCta leaving = new CountingCta();
        SwappableProviders src = new SwappableProviders() {
            @Override
            public Policy create(Slot slot, PolicyContext context) { return slot == Slot.CTA_SCHEDULER ? leaving : super.create(slot, context); }
        };
        src.swap(new ScriptedSwap(When.TIME, 0, Slot.CTA_SCHEDULER, new Choice("round-robin", Map.of())));
        RunResult swapped = run(src, TestMachines.workload("stream", 1, "elements", 65536));
        assertEquals(1, src.records.size(), src.records.toString());
        assertEquals("ok", src.records.get(0).outcome());
        assertEquals(0, src.records.get(0).simTimePs());
        assertEquals(0, leaving.launches, "the policy swapped out at time 0 was told of a launch");
        assertEquals(0, leaving.picks, "the policy swapped out at time 0 placed blocks");

        RunResult fromStart = run(new SwappableProviders(), TestMachines.workload("stream", 1, "elements", 65536));
        assertEquals(fromStart.simTimePs(), swapped.simTimePs());
        assertEquals(fromStart.stats(), swapped.stats());
    }
}
