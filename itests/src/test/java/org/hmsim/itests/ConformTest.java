package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hmsim conform} on the shipped presets where a review found it failing shipped policies for reasons of its own:
 * a fixed 1 µs epoch put the swaps after the end of a fast preset's run, and the forced {@code placement: interleave}
 * is refused on seed 004's machines, where the interleave and CTA-scheduler slots act.
 */
class ConformTest extends ContainerPerClass {

    @Test
    void aShippedPolicyPassesOnAFastPreset(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "placement", "local", "--machine",
                Hmsim.examples().resolve("machines/agarwal-ch4.yaml").toString(), "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertTrue(c.out().contains("PASS swap out mid-run (epoch 6) and the run completes"), c::toString);
        assertTrue(c.out().contains("PASS a run that starts on it completes"), c::toString);
    }

    @Test
    void theInterleaveSlotIsCheckedOnAMultiGpuMachine(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "interleave", "coarse", "--machine",
                Hmsim.examples().resolve("machines/coda.yaml").toString(), "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertFalse(c.out().contains("placement interleave"), "every pool is a GPU memory there: no placement is forced\n" + c.out());
        assertTrue(c.out().contains("PASS state export/import"), c::toString);
    }

    /** The swap run starts on the default: its epoch must fit the default's run too (ddr-only's own run is twice as long). */
    @Test
    void aPolicyWhoseRunIsLongerThanTheDefaultsStillSwapsInside(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "placement", "ddr-only", "--machine", Hmsim.smallMachine(), "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
    }

    /**
     * A machine whose every pool fixes its DRAM scheduler refuses the study of the checks at validation: the wrong
     * --machine (exit 2), said as such, not five failed checks blaming the policy (a trial).
     */
    @Test
    void aMachineWhosePoolsFixTheirSchedulerIsTheWrongMachineForADramScheduler(@TempDir Path dir) throws Exception {
        Path m = Hmsim.write(dir.resolve("fixed.yaml"), "name: fixed", "gpus: 1", "gpu: {sms: 4}", "pools:",
                "  - {name: gddr, kind: GDDR5, node: gpu0, channels: 4, bandwidth: 100GB/s, capacity: 1GB, scheduler: fcfs}",
                "  - {name: ddr, kind: DDR4, node: cpu, channels: 2, bandwidth: 40GB/s, capacity: 4GB, scheduler: fr-fcfs}",
                "links:", "  - {between: [gpu0, cpu], latency_cycles: 100, bandwidth: 64GB/s}");
        Hmsim.Result c = Hmsim.run(container, "conform", "dram-scheduler", "fcfs", "--machine", m.toString(), "--work", dir.resolve("w").toString());
        assertEquals(2, c.code(), c::toString);
        assertTrue(c.err().contains("the study of the checks was refused on") && c.out().contains("acts on no pool"), c::toString);
        assertFalse(c.out().contains("FAIL"), c::toString);
    }

    /** A machine where the policy would act on nothing is the wrong --machine (exit 2), not four failed checks (exit 3). */
    @Test
    void aMachineThePolicyRefusesIsBadInput(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "placement", "ratio", "--machine",
                Hmsim.examples().resolve("machines/coda.yaml").toString(), "--work", dir.resolve("w").toString());
        assertEquals(2, c.code(), c::toString);
        assertTrue(c.err().contains("ratio refuses it: ratio chooses the pool of a page") && c.err().contains("would act on nothing")
                && !c.err().contains("policy-check.yaml"), c::toString);
    }

    /**
     * Without --machine a residency policy was checked on small.yaml, which every residency policy refuses (no {@code uvm:}),
     * so conform failed for a plugin author who had not guessed the etc preset: the first preset it accepts is taken, and said.
     */
    @Test
    void withoutAMachineAPolicyIsCheckedOnThePresetItAccepts(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "residency", "fifo", "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertTrue(c.out().contains("conform: fifo refuses small.yaml; using etc.yaml, the first preset of the installation it accepts"), c::toString);
        assertTrue(c.out().contains("etc.yaml; in "), "the runs are on etc.yaml\n" + c.out());
    }

    /** A policy that acts on nothing on small.yaml (affinity on one GPU: a note) failed five checks there, found by a trial. */
    @Test
    void withoutAMachineAMultiGpuRuleIsCheckedOnAMultiGpuPreset(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "cta-scheduler", "affinity", "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertTrue(c.out().contains("affinity refuses small.yaml; using coda.yaml"), c::toString);
    }

    /** On a GPU stream the CPU never touched memory, so a coherence policy that failed at its first CPU access passed (a trial). */
    @Test
    void aCoherencePolicyIsCheckedOnAnApuProgram(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "coherence", "directory", "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertTrue(c.out().contains("(runs: apu-kmeans, elements: 4096, seed 7") && c.out().contains("sahc.yaml"), c::toString);
    }
}
