package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.junit.jupiter.api.Test;

/**
 * A host phase alongside a kernel runs on the CPU while the kernel runs on the GPU: the two overlap in time, and on the
 * APU (sahc preset: CPU and GPU share the DRAM behind the directory) the CPU's stream slows the kernel down.
 */
class AlongsideHostPhaseTest {
    /** A GPU stream, with a CPU stream over an allocation of its own ({@code cpuBytes}) before or alongside the kernel. */
    private static Workload withCpuStream(long cpuBytes, Boolean alongside) { return withCpuStream(cpuBytes, alongside, 1); }

    private static Workload withCpuStream(long cpuBytes, Boolean alongside, int kernels) {
        Workload gpu = TestMachines.workload("stream", 1, "elements", 1 << 18, "iterations", kernels);
        return new Workload() {
            @Override public String name() { return "stream+cpu"; }

            @Override
            public List<AllocationSpec> allocations() {
                List<AllocationSpec> a = new ArrayList<>(gpu.allocations());
                a.add(new AllocationSpec("cpu", cpuBytes));
                return a;
            }

            @Override
            public List<Kernel> kernels(long[] base) { return gpu.kernels(java.util.Arrays.copyOf(base, base.length - 1)); }

            @Override
            public List<HostPhase> hostPhases(long[] base) {
                if (alongside == null) return List.of();
                HostPhase.Stream s = new HostPhase.Stream(base[base.length - 1], cpuBytes, 64, false);
                return List.of(new HostPhase(0, "cpu-stream", List.of(s), 0, alongside));
            }
        };
    }

    private static RunResult run(String bandwidth, Workload w) {
        return TestMachines.run(TestMachines.machine("sahc", "pools.0.bandwidth", bandwidth), w, new ClasspathPolicies());
    }

    private static double cpuPs(RunResult r) { return r.stats().get("cpu.host_phase_ps"); }

    private static double smBusy(RunResult r) { return r.stats().get("gpu0.sm0.occupied_cycles"); }

    /**
     * With the preset's 700 GB/s neither side saturates the DRAM: the program takes about the longer of the two
     * (measured 11.3 us against 5.4 us for the kernel alone, 9.8 us for the CPU's phase alone and 15.3 us one after the other).
     */
    @Test
    void theCpuRunsWhileTheKernelRuns() {
        long cpuBytes = 256L << 10;
        RunResult alone = run("700GB/s", withCpuStream(cpuBytes, null)), before = run("700GB/s", withCpuStream(cpuBytes, false)),
                alongside = run("700GB/s", withCpuStream(cpuBytes, true));
        assertTrue(cpuPs(before) > alone.simTimePs(), "the case: a CPU phase as long as the kernel");
        assertEquals(1.0, alongside.stats().get("cpu.host_phases"), "the phase runs once");
        assertTrue(before.simTimePs() >= alone.simTimePs() + cpuPs(before) - 1, "before: the kernel waits for the CPU");
        assertTrue(alongside.simTimePs() < 0.8 * before.simTimePs(), "overlapped: " + alongside.simTimePs() + " against " + before.simTimePs());
        assertTrue(alongside.simTimePs() >= Math.max(alone.simTimePs(), cpuPs(before)), "the program waits for both: " + alongside.simTimePs());
        assertEquals(alongside.simTimePs(), cpuPs(alongside), 1, "the phase, which outlasts the kernel, ends the workload");
        assertEquals(smBusy(alone), smBusy(alongside), 0.05 * smBusy(alone), "with bandwidth to spare the kernel keeps its pace");
    }

    /**
     * At 40 GB/s the GPU's stream saturates the DRAM, and the CPU's few outstanding misses queue behind its flood under
     * FR-FCFS: the CPU's phase, 22.7 us alone, ends 74 us into the run, after the 54 us kernel (the CPU starved, as in the
     * CPU-GPU interference studies; nothing gives the CPU priority). The program is still no slower than one after the other.
     */
    @Test
    void aGpuThatSaturatesTheDramStarvesTheCpusPhase() {
        long cpuBytes = 256L << 10;
        RunResult alone = run("40GB/s", withCpuStream(cpuBytes, null)), before = run("40GB/s", withCpuStream(cpuBytes, false)),
                alongside = run("40GB/s", withCpuStream(cpuBytes, true));
        assertTrue(cpuPs(alongside) > 2 * cpuPs(before), "the CPU's phase slows beside the kernel: " + cpuPs(alongside) + " against " + cpuPs(before) + " ps");
        assertTrue(smBusy(alongside) >= smBusy(alone) * 0.98, "the kernel does not gain from the company");
        assertTrue(alongside.simTimePs() <= before.simTimePs(), alongside.simTimePs() + " against " + before.simTimePs());
    }

    /** The next launch is the program's synchronisation: it waits for the kernel and for the phase beside it, whichever ends last. */
    @Test
    void theNextLaunchWaitsForTheKernelAndThePhaseBesideIt() {
        RunResult alone = run("700GB/s", withCpuStream(16L << 10, null, 2));
        RunResult shortPhase = run("700GB/s", withCpuStream(16L << 10, true, 2)), longPhase = run("700GB/s", withCpuStream(256L << 10, true, 2));
        assertTrue(cpuPs(shortPhase) < 0.25 * alone.simTimePs(), "the case: a phase shorter than the first kernel");
        assertEquals(alone.simTimePs(), shortPhase.simTimePs(), 0.05 * alone.simTimePs(), "hidden behind the first kernel");
        assertTrue(cpuPs(longPhase) > 0.75 * alone.simTimePs(), "the case: a phase longer than the first kernel");
        long secondKernel = alone.simTimePs() - run("700GB/s", withCpuStream(16L << 10, null, 1)).simTimePs();
        assertTrue(longPhase.simTimePs() > cpuPs(longPhase) + 0.9 * secondKernel,
                "the second kernel starts after the phase: " + longPhase.simTimePs() + " ps, phase " + cpuPs(longPhase) + ", second kernel " + secondKernel);
    }

    @Test
    void alongsideTheEndOfTheProgramIsRefused() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new HostPhase(HostPhase.AFTER_LAST_KERNEL, "post", List.of(), 0, true));
        assertTrue(e.getMessage().contains("alongside needs a kernel"), e.getMessage());
    }
}
