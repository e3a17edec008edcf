package org.hmsim.coda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Blocks bound to a GPU wait in that GPU's queue, however far down the grid (seed 004 §4.3's per-GPU queues). A review
 * found the launcher's former 4096-block window leaving GPUs 1-3 idle under contiguous batches of 5,120 blocks each:
 * 5.15 ms and a 27 % idle tail against round-robin's 2.41 ms.
 */
class GridQueuesTest {
    @Test
    void contiguousBatchesLongerThanTheOldWindowKeepEveryGpuBusy() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = CodaSim.parallel(
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", 20480), CodaSim.FGP),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", 20480), CodaSim.Config.of("fine", "contiguous", "granularity", 128)));
        double rr = r[0].simTimeNs(), contiguous = r[1].simTimeNs();
        System.out.printf("block-exclusive 20480 blocks, fine: round-robin %.0f ns, contiguous %.0f ns, idle tail %.4f%n",
                rr, contiguous, CodaSim.metric(r[1], "gpu_idle_tail_fraction"));
        assertTrue(contiguous < 1.05 * rr, "contiguous within 5 % of round-robin: " + contiguous + " vs " + rr);
        assertTrue(CodaSim.metric(r[1], "gpu_idle_tail_fraction") < 0.01, "no GPU idles while another runs its batch");
    }

    /**
     * A cta-scheduler swapped in mid-kernel is told the running kernel and the blocks not yet started are queued by its
     * binding: a review swapped round-robin for contiguous 3 us into a 2,048-block kernel and got 1,976 blocks on one GPU
     * (imbalance 3.86, 806 us against 241 us), the new rule never having been told the grid's size.
     */
    @Test
    void aSchedulerSwappedInMidKernelKnowsTheGrid() {
        MachineConfig m = CodaSim.machine("coda");
        org.hmsim.platform.machine.ClasspathPolicies policies = new org.hmsim.platform.machine.ClasspathPolicies(new AffinityCtaProvider(), new ContiguousCtaProvider())
                .with(org.hmsim.api.policy.Slot.INTERLEAVE, "fine", java.util.Map.of("granularity", 128)).with(org.hmsim.api.policy.Slot.CTA_SCHEDULER, "round-robin", java.util.Map.of());
        var spec = new org.hmsim.platform.machine.RunSpec("t", m, CodaSim.workload("block-exclusive", "ctas", 2048), policies, 1, 1_000_000, 0);
        var swap = new org.hmsim.platform.machine.ScriptedSwap(org.hmsim.platform.machine.ScriptedSwap.When.TIME, 3_000_000,
                org.hmsim.api.policy.Slot.CTA_SCHEDULER, new org.hmsim.platform.machine.ScriptedSwap.Choice("contiguous", java.util.Map.of()));
        RunResult r = org.hmsim.platform.machine.Simulation.run(spec, java.util.List.of(swap));
        System.out.printf("round-robin -> contiguous at 3 us: %.0f ns, imbalance %.3f%n", r.simTimeNs(), CodaSim.metric(r, "cta_imbalance"));
        assertEquals(1.0, CodaSim.metric(r, "swaps"), "the swap to contiguous took place (round-robin alone spreads the blocks too)");
        assertTrue(CodaSim.metric(r, "cta_imbalance") < 1.1, "blocks spread over the GPUs after the swap: " + CodaSim.metric(r, "cta_imbalance"));
    }

    /** A cta-scheduler that records what a swap mid-kernel tells it, and places each block on the first SM with room. */
    static final class Recorder implements org.hmsim.api.policy.CtaSchedulerPolicy {
        static final java.util.List<Recorder> MADE = new java.util.concurrent.CopyOnWriteArrayList<>();
        int ctasAtSwap = -1, placedAtSwap = -1, asked, askedPlaced;
        java.util.function.IntPredicate placed;

        @Override
        public void onSwappedInMidKernel(int kernel, int ctas, int warpsPerCta, java.util.function.IntPredicate dispatched) {
            ctasAtSwap = ctas;
            placed = dispatched;
            placedAtSwap = (int) java.util.stream.IntStream.range(0, ctas).filter(dispatched).count();
        }

        @Override
        public int boundGpu(int kernel, int cta) {
            asked++;
            if (placed != null && placed.test(cta)) askedPlaced++;
            return -1;
        }

        @Override
        public int pickSm(int kernel, int cta, java.util.List<? extends org.hmsim.api.machine.CoreView> sms, boolean[] canTake) {
            for (int i = 0; i < canTake.length; i++) if (canTake[i]) return i;
            return -1;
        }
    }

    static final class RecorderProvider implements org.hmsim.api.policy.PolicyProvider {
        @Override public org.hmsim.api.policy.Slot slot() { return org.hmsim.api.policy.Slot.CTA_SCHEDULER; }
        @Override public String name() { return "recorder"; }
        @Override public String description() { return "records a swap mid-kernel"; }
        @Override public java.util.List<org.hmsim.api.policy.ParamSpec> parameters() { return java.util.List.of(); }
        @Override public org.hmsim.api.policy.Policy create(org.hmsim.api.policy.PolicyContext c, org.hmsim.api.policy.Params p) {
            Recorder r = new Recorder();
            Recorder.MADE.add(r);
            return r;
        }
    }

    /**
     * A rule swapped in mid-kernel was told the whole grid again and asked to bind blocks already running, so a rule that
     * splits the remaining work could not count it (a researcher's work-stealing rule left a GPU idle half the run): it is
     * told which blocks are placed, and asked only about the others (api.policy 1.20.0).
     */
    @Test
    void aSchedulerSwappedInMidKernelIsToldWhichBlocksArePlaced() {
        Recorder.MADE.clear();
        MachineConfig m = CodaSim.machine("coda");
        org.hmsim.platform.machine.ClasspathPolicies policies = new org.hmsim.platform.machine.ClasspathPolicies(new RecorderProvider())
                .with(org.hmsim.api.policy.Slot.INTERLEAVE, "fine", java.util.Map.of("granularity", 128)).with(org.hmsim.api.policy.Slot.CTA_SCHEDULER, "round-robin", java.util.Map.of());
        var spec = new org.hmsim.platform.machine.RunSpec("t", m, CodaSim.workload("block-exclusive", "ctas", 1024), policies, 1, 1_000_000, 0);
        var swap = new org.hmsim.platform.machine.ScriptedSwap(org.hmsim.platform.machine.ScriptedSwap.When.TIME, 3_000_000,
                org.hmsim.api.policy.Slot.CTA_SCHEDULER, new org.hmsim.platform.machine.ScriptedSwap.Choice("recorder", java.util.Map.of()));
        RunResult r = org.hmsim.platform.machine.Simulation.run(spec, java.util.List.of(swap));
        assertEquals(1.0, CodaSim.metric(r, "swaps"));
        Recorder rec = Recorder.MADE.get(Recorder.MADE.size() - 1);
        assertEquals(1024, rec.ctasAtSwap, "told the grid");
        assertTrue(rec.placedAtSwap > 0 && rec.placedAtSwap < 1024, "some blocks already placed at 3 us: " + rec.placedAtSwap);
        assertEquals(1024 - rec.placedAtSwap, rec.asked, "asked to bind only the blocks not placed");
        assertEquals(0, rec.askedPlaced);
    }
}
