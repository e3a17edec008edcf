package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.yaml.YamlCore;
import org.junit.jupiter.api.Test;

/**
 * The CPU reaches a 2-GPU machine's fine-grained pages (spread 128 B by 128 B over both GPU memories) as the GPUs do:
 * each block in the memory that holds it, over the CPU's link to that GPU. A tester's host phase touching such a page
 * failed with an index past the CPU's route table, which had the real pools only.
 */
class CpuReachesSpreadPagesTest {
    private static final int ELEMENTS = 1 << 14; // stream's first array: 64 KB, 16 pages

    /** Two GPUs with a GDDR each, DDR and a CPU on the CPU node, every node linked to every other. */
    @SuppressWarnings("unchecked")
    private static MachineConfig twoGpusAndACpu() {
        String yaml = String.join("\n", "name: two-gpus-cpu", "gpus: 2", "gpu: {clock: 1400MHz, sms: 4, l2: {slices: 4, size: 64KB}}", "pools:",
                "  - {name: g0, kind: GDDR5, node: gpu0, channels: 4, bandwidth: 100GB/s, capacity: 1GB}",
                "  - {name: g1, kind: GDDR5, node: gpu1, channels: 4, bandwidth: 100GB/s, capacity: 1GB}",
                "  - {name: ddr, kind: DDR4, node: cpu, channels: 2, bandwidth: 40GB/s, capacity: 1GB}", "links:",
                "  - {between: [gpu0, cpu], bandwidth: 32GB/s}", "  - {between: [gpu1, cpu], bandwidth: 32GB/s}",
                "  - {between: [gpu0, gpu1], bandwidth: 32GB/s}", "cpu: {cores: 2}");
        return MachineConfig.parse((Map<String, Object>) YamlCore.yaml().load(yaml));
    }

    /** A GPU stream, then (with {@code cpuReads}) a host phase reading the first array the kernel placed, line by line. */
    private static Workload streamThenCpuReads(boolean cpuReads) {
        Workload gpu = TestMachines.workload("stream", 1, "elements", ELEMENTS);
        return new Workload() {
            @Override public String name() { return "stream+cpu-reads"; }

            @Override public List<AllocationSpec> allocations() { return gpu.allocations(); }

            @Override public List<Kernel> kernels(long[] base) { return gpu.kernels(base); }

            @Override
            public List<HostPhase> hostPhases(long[] base) {
                if (!cpuReads) return List.of();
                HostPhase.Stream read = new HostPhase.Stream(base[0], ELEMENTS * 4L, 64, false);
                return List.of(new HostPhase(HostPhase.AFTER_LAST_KERNEL, "cpu-reads", List.of(read), 0));
            }
        };
    }

    private static RunResult run(boolean cpuReads) {
        return TestMachines.run(twoGpusAndACpu(), streamThenCpuReads(cpuReads), new ClasspathPolicies().with(Slot.INTERLEAVE, "fine", Map.of()));
    }

    private static double added(RunResult with, RunResult without, String metric) { return with.metrics().get(metric) - without.metrics().get(metric); }

    @Test
    void theCpusReadsOfAFinePageGoHalfToEachGpuMemoryOverItsLink() {
        RunResult without = run(false), with = run(true);
        assertEquals(1.0, with.stats().get("cpu.host_phases"), "the phase ran");
        assertEquals(0, with.metrics().get("pool.ddr.bytes") - without.metrics().get("pool.ddr.bytes"), "none of it in DDR");
        // 64 KB in 64 B lines; consecutive 128 B blocks alternate between the memories
        double g0 = added(with, without, "pool.g0.bytes"), g1 = added(with, without, "pool.g1.bytes");
        assertEquals(ELEMENTS * 2L, g0, "half of the array's blocks are g0's");
        assertEquals(ELEMENTS * 2L, g1, "the other half g1's");
        assertTrue(added(with, without, "link.gpu0-cpu.wire_bytes") > 0, "g0's blocks over the CPU's link to gpu0");
        assertTrue(added(with, without, "link.gpu1-cpu.wire_bytes") > 0, "g1's blocks over the CPU's link to gpu1");
        assertEquals(0, added(with, without, "link.gpu0-gpu1.wire_bytes"), "and not between the GPUs");
    }
}
