package org.hmsim.platform.traces;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.replay.CacheReplay;
import org.hmsim.platform.traces.replay.CacheSpec;

/**
 * Writes a trace of at least {@code MB} megabytes (poorly compressible scattered GPU loads, then a CPU
 * phase), then replays it through a two-level cache, printing the counts: run in a JVM with a small heap
 * to show that writing and reading are bounded. {@code java -Xmx256m -cp ... BigTraceMain FILE 2048} is
 * the 2 GB check (docs/traces.md).
 */
public final class BigTraceMain {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long target = Long.parseLong(args[1]) << 20;
        SplittableRandom r = new SplittableRandom(1);
        WarpInstruction in = new WarpInstruction();
        long written = 0;
        try (TraceWriter w = new TraceWriter(file)) {
            w.allocation(new TraceAllocation("data", 1L << 34, null, false, 1L << 36));
            int kernel = 0;
            while (true) {
                KernelShape k = KernelShape.linear("scatter" + kernel++, 2048, 256, 0);
                w.beginKernel(k);
                for (int c = 0; c < k.ctas(); c++) {
                    for (int i = 0; i < 40; i++)
                        for (int wp = 0; wp < 8; wp++) { // interleaved warps, as NVBit emits them
                            in.memory(WarpInstruction.Kind.LOAD, 4, -1, false);
                            for (int l = 0; l < 32; l++) in.addresses[l] = (1L << 36) + (r.nextLong(1L << 34) & ~3L);
                            w.instruction(c, wp, in);
                            in.compute(1 + r.nextInt(7), false);
                            w.instruction(c, wp, in);
                        }
                }
                w.endKernel();
                written += (long) k.ctas() * 8 * 40 * (32 * 5);
                if (written >= target * 9 / 10) break;
            }
            w.beginCpuPhase("cpu");
            for (int i = 0; i < 2_000_000; i++) w.cpuAccess(CpuKind.LOAD, 0x7ff000000L + r.nextInt(1 << 24), 8);
            w.endCpuPhase();
        }
        long size = Files.size(file);
        CacheReplay rep = new CacheReplay(List.of(CacheSpec.parse("l1:size=32KB,ways=8,line=128"), CacheSpec.parse("l2:size=1MB,ways=16,line=128")),
                n -> CacheReplayTest.policy(n));
        try (TraceFile f = TraceFile.open(file)) {
            f.readInto(rep, true);
        }
        Runtime rt = Runtime.getRuntime();
        System.out.println("bytes=" + size + " l1.fetches=" + rep.fetches("l1") + " l2.misses=" + rep.misses("l2")
                + " maxHeapMB=" + (rt.maxMemory() >> 20) + " usedMB=" + ((rt.totalMemory() - rt.freeMemory()) >> 20));
    }
}
