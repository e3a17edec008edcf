package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unified memory with a CPU side: when the driver evicts a page the CPU read over the link, the CPU's lines of its GPU
 * frame leave with it, as the GPUs' L2 lines do. A trial's CPU read a page b whose frame had held a page a it read
 * before: all 8,192 of its reads hit a's lines, half the PCIe traffic vanished and the oversubscribed run came out 36 %
 * faster than the one where everything fits.
 */
class UvmEvictedFrameCpuLinesTest {
    /** Kernel 0 reads a, the CPU reads a, kernel 1 reads b (into a's frames at 0.5), the CPU reads b at the end. */
    private static final String WORKLOAD = """
            name: stale
            allocations:
              - {name: a, size: 1MB}
              - {name: b, size: 1MB}
            kernels:
              - {name: reada, grid: 64, block: 256, loop: 16, steps: [{load: {alloc: a, index: "i*64*256 + cta*256 + tid"}}]}
              - {name: readb, grid: 64, block: 256, loop: 16, steps: [{load: {alloc: b, index: "i*64*256 + cta*256 + tid"}}]}
            host:
              - {before: 1, name: cpu_reads_a, compute: 0, streams: [{alloc: a, stride: 128}]}
              - {before: end, name: cpu_reads_b, compute: 0, streams: [{alloc: b, stride: 128}]}
            """;

    private static RunResult run(Path dir, double oversubscription) throws Exception {
        Path f = dir.resolve("stale.yaml");
        Files.writeString(f, WORKLOAD);
        Workload w = BuiltinWorkloads.create(WorkloadFile.load(f), 1);
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 4, "cpu.cores", 2, "uvm.oversubscription", oversubscription);
        return TestMachines.run(m, w, new ClasspathPolicies());
    }

    @Test
    void theCpuLosesItsLinesOfAnEvictedPagesFrame(@TempDir Path dir) throws Exception {
        RunResult fits = run(dir, 1.0), half = run(dir, 0.5);
        double linesOfB = (1 << 20) / 128.0;
        assertTrue(UnifiedMemoryTest.stat(half, "uvm.evictions") >= 16, "the case: a's pages evicted for b's");
        assertTrue(UnifiedMemoryTest.stat(half, "coherence.evicted_frame_lines") >= linesOfB / 2,
                "the CPU's lines of a's frames left with them: " + UnifiedMemoryTest.stat(half, "coherence.evicted_frame_lines"));
        assertEquals(UnifiedMemoryTest.stat(fits, "cpu.llc.hits"), UnifiedMemoryTest.stat(half, "cpu.llc.hits"),
                "no read of b hits a line of a");
        assertTrue(half.simTimePs() > 0.9 * fits.simTimePs(), "oversubscribed is not faster: " + half.simTimePs() + " against " + fits.simTimePs());
    }
}
