package org.hmsim.sahc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.Test;

/**
 * The directory's MSHRs go to CPU and GPU requests in turn. The GPU's refused senders were told first on every release,
 * so under {@code directory} a CPU phase alongside a kernel made no progress until the kernel ended (a CPU-GPU
 * interference trial: one access issued 1 us into the kernel was answered at its end, 7.2 us in).
 */
class DirectoryFairnessTest {
    private static Workload oneCpuAccessPerCoreBesideAKernel(String when) {
        WorkloadProvider p = WorkloadFile.parse("""
                name: one
                allocations:
                  - {name: g, size: 512KB, read_only: true}
                  - {name: tiny, size: 256}
                kernels:
                  - name: k0
                    grid: 64
                    block: 256
                    loop: 8
                    steps:
                      - load: {alloc: g, index: "cta*256 + tid + i*64*256"}
                host:
                  - {WHEN: 0, name: one, compute: 2000, streams: [{alloc: tiny, stride: 64}]}
                """.replace("WHEN", when), "one.yaml");
        return p.create(Params.validate(p.parameters(), Map.of()), 1);
    }

    @Test
    void aCpuPhaseBesideAKernelProgressesUnderTheDirectory() {
        RunResult alone = Apu.run(Apu.machine(), oneCpuAccessPerCoreBesideAKernel("before"), "directory");
        RunResult beside = Apu.run(Apu.machine(), oneCpuAccessPerCoreBesideAKernel("alongside"), "directory");
        double phaseAlone = Apu.stat(alone, "cpu.host_phase_ps"), phaseBeside = Apu.stat(beside, "cpu.host_phase_ps");
        double kernel = alone.simTimePs() - phaseAlone;
        assertTrue(Apu.stat(beside, "directory.mshr_refusals") > 0, "the case: the kernel's misses fill the directory's MSHRs");
        assertTrue(kernel > 3 * phaseAlone, "the case: the kernel outlasts the phase (" + kernel + " ps against " + phaseAlone + ")");
        // the CPU's few accesses wait their turn, not the whole kernel
        assertTrue(Apu.stat(beside, "directory.cpu_mshr_wait_ps") > 0, "the CPU's wait for an MSHR is timed");
        assertTrue(phaseBeside < phaseAlone + 0.5 * kernel, "the CPU's phase took " + phaseBeside + " ps beside a " + kernel + " ps kernel (alone "
                + phaseAlone + ")");
    }
}
