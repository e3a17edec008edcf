package org.hmsim.platform.gpu;

import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.gpu.sm.Sm;

/**
 * Host-speed benchmark (not a test): 15 SMs stream and re-read data; prints L1 line requests per
 * host second. Run: {@code java -cp <test classpath> org.hmsim.platform.gpu.GpuThroughputBench}.
 */
public final class GpuThroughputBench {
    public static void main(String[] args) {
        int loadsPerWarp = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        for (int rep = 0; rep < 3; rep++) {
            for (int pattern = 0; pattern < 3; pattern++) run(pattern, loadsPerWarp);
        }
    }

    static void run(int pattern, int n) {
        GpuConfig b = TestSupport.config(15, 64);
        GpuConfig cfg = new GpuConfig(1400, 15, 8, 48, 48 * 1024, 2, b.l1(), b.l2(), 8, b.crossbar(), b.tlb());
        TestSupport.Rig rig = new TestSupport.Rig(cfg, TestSupport.policies(), 140 * 714);
        Kernel k = TestSupport.kernel("bench", 15 * 8 * 2, 256, (cta, warp) -> new WarpProgram() {
            int i;

            @Override
            public boolean next(WarpInstruction in) {
                if (i == n) return false;
                int j = i++;
                if (j % 2 == 1) {
                    in.compute(4, true);
                    return true;
                }
                long base = switch (pattern) {
                    case 0 -> 0x10000000L + (((long) cta * 8 + warp) * n + j) * 128; // streaming, coalesced
                    case 1 -> 0x10000000L + ((long) warp * 8 + j % 16) * 128;          // hot set: L1 hits
                    default -> 0x10000000L + (((long) cta * 8 + warp) * 64 + j % 64) * 128 * 4; // L2-resident
                };
                TestSupport.strided(in, WarpInstruction.Kind.LOAD, base, 4, 4, false);
                return true;
            }
        });
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        long simPs = rig.run(k);
        double secs = (mx.getCurrentThreadCpuTime() - t0) / 1e9;
        long lines = rig.gpu.sms().stream().mapToLong(Sm::lineRequests).sum();
        System.out.printf("pattern %d: %d line requests, %.1f us simulated, %.3f s host cpu, %.2f M line req/s, %d events%n",
                pattern, lines, simPs / 1e6, secs, lines / secs / 1e6, rig.engine.eventsHandled());
    }
}
