package org.hmsim.selectivecaching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.platform.workloads.file.WorkloadFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote directory end to end (seed 000 §6.2.1): the CPU reads GPU-homed lines in a host phase, then a kernel reads
 * them twice. The GPU must not cache them (the CPU may hold them), so both reads go through the L1 and the L2 without
 * allocating. The ladder checks (SelectiveCachingChecksTest) are GPU-only: there the directory stays empty, and a
 * policy that let every GPU-homed line allocate passed them all. Control: the same accesses with the CPU reading after
 * the kernel, so nothing is in the directory while the GPU runs and the lines are cached as usual.
 */
class RemoteDirectoryRunTest {
    @TempDir Path dir;

    static final int LINES = 512; // 64 KB: fits the CPU's caches and the GPU L2, far below the directory's capacity (no flush)

    /** One allocation read by the CPU (one access per 128 B line) at {@code when}, and by a kernel, twice per element. */
    static String workload(String when) {
        return """
                name: cpu-and-gpu-read
                params:
                  lines: %d
                allocations:
                  - {name: a, size: "lines*128"}
                host:
                  - {before: %s, name: cpu-reads, streams: [{alloc: a, stride: 128}]}
                kernels:
                  - name: gpu-reads
                    grid: "lines/8"
                    block: 256
                    steps:
                      - load: {alloc: a, index: "cta*256 + tid"}
                      - wait
                      - load: {alloc: a, index: "cta*256 + tid"}
                """.formatted(LINES, when);
    }

    RunResult run(String when) throws Exception {
        Path f = dir.resolve(when + ".yaml");
        Files.writeString(f, workload(when));
        Workload w = BuiltinWorkloads.create(WorkloadFile.load(f), 1);
        // agarwal-ch6 with CPU cores (a cpu: section), so host phases run and reach memory; every page in GDDR: every
        // line is GPU-homed, so only the remote directory can make one uncacheable
        MachineConfig m = Ch6.machine("cpu.cores", 2);
        ClasspathPolicies defaults = new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", "fast_percent", 100);
        PolicySource pol = new PolicySource() {
            @Override
            public Policy create(Slot slot, PolicyContext context) {
                if (slot != Slot.CACHEABILITY) return defaults.create(slot, context);
                SelectiveCachingProvider sc = new SelectiveCachingProvider();
                return sc.create(context, Params.validate(sc.parameters(), new LinkedHashMap<>()));
            }

            @Override
            public String describe(Slot slot) { return slot == Slot.CACHEABILITY ? "selective-caching" : defaults.describe(slot); }
        };
        RunResult r = Simulation.run(new RunSpec("remote-dir-" + when, m, w, pol, 1, 10_000_000L, 0));
        assertEquals(0, Ch6.stat(r, "pool.ddr.bytes"), "the case: every page in GDDR");
        assertEquals(LINES, Ch6.stat(r, "cpu.accesses"), "the case: the CPU read each line once");
        return r;
    }

    static double l2(RunResult r, String counter) { return Ch6.sum(r, "gpu0.l2.slice", "." + counter); }

    static double l1(RunResult r, String counter) { return Ch6.sum(r, "gpu0.sm", ".l1." + counter); }

    @Test
    void gpuHomedLinesTheCpuReadBypassTheGpuCaches() throws Exception {
        RunResult r = run("0");
        // each line the CPU read entered the directory once (a new line also probes the GPU caches)
        assertEquals(LINES, Ch6.stat(r, "policy.cacheability.remote_dir_inserts"), "CPU-read GPU-homed lines entered the remote directory");
        assertEquals(0, Ch6.stat(r, "policy.cacheability.remote_dir_flushes"), "the case: no flush emptied it");
        double l2Requests = l2(r, "hits") + l2(r, "misses");
        System.out.printf("remote directory: %.0f inserts, %.0f hits; L2 %.0f requests, %.0f uncached, %.0f hits; L1 %.0f hits%n",
                Ch6.stat(r, "policy.cacheability.remote_dir_inserts"), Ch6.stat(r, "policy.cacheability.remote_dir_hits"), l2Requests,
                l2(r, "uncached_requests"), l2(r, "hits"), l1(r, "hits"));
        assertTrue(l2Requests > 0);
        // every GPU read of those lines found them in the directory at the L2 and was sent on uncached
        assertTrue(Ch6.stat(r, "policy.cacheability.remote_dir_hits") >= LINES, "GPU reads hit the directory: "
                + Ch6.stat(r, "policy.cacheability.remote_dir_hits"));
        assertEquals(0, Ch6.stat(r, "policy.cacheability.remote_dir_false_positives"), "each of them the CPU really read");
        assertEquals(l2Requests, l2(r, "uncached_requests"), "no L2 request to a line the CPU read could allocate");
        assertEquals(l1(r, "misses"), l1(r, "uncached_requests"), "no L1 miss to such a line could allocate");
        // each line is read twice by the GPU: had either read allocated, the second would hit
        assertEquals(0, l1(r, "hits"), "the second read of a line found no copy in the L1");
        assertEquals(0, l2(r, "hits"), "nor in the L2");
    }

    @Test
    void withTheCpuReadingOnlyAfterTheKernelTheSameLinesAreCached() throws Exception {
        RunResult r = run("end");
        assertEquals(LINES, Ch6.stat(r, "policy.cacheability.remote_dir_inserts"), "the CPU's reads still enter the directory, after the kernel");
        assertEquals(0, Ch6.stat(r, "policy.cacheability.remote_dir_hits"), "the directory was empty while the GPU ran");
        assertEquals(0, l1(r, "uncached_requests") + l2(r, "uncached_requests"), "GPU-homed lines are cacheable");
        assertTrue(l1(r, "hits") + l2(r, "hits") > 0, "the second read of a line hit a cached copy");
    }
}
