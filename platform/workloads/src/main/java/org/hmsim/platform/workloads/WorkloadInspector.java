package org.hmsim.platform.workloads;

import java.util.Arrays;
import java.util.List;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.gen.Hash;

/**
 * Runs every warp program of a workload without a machine (kernel by kernel, CTA by CTA, warp by warp)
 * and checks and counts what it emits: every active address must lie inside an allocation, memory
 * instructions must have an active lane. Used by tests and by tools that describe a workload
 * (instruction counts, accesses per allocation, footprint).
 */
public final class WorkloadInspector {
    public static final int LINE = 128;

    /** Sees every instruction; {@code allocation[l]} is the allocation index of lane l's address. */
    @FunctionalInterface
    public interface Visitor {
        void instruction(int kernel, int cta, int warp, WarpInstruction in, int[] allocation);
    }

    /**
     * @param lineAccesses per allocation, distinct 128 B lines per memory instruction (what a coalescer sends)
     * @param threadAccesses per allocation, active thread accesses
     * @param checksum a hash of every instruction, for determinism checks
     */
    public record Summary(String name, long footprint, int kernels, long warps, long instructions, long memoryInstructions,
                          List<String> allocations, long[] threadAccesses, long[] lineAccesses, long checksum) {
        public long linesTotal() { return Arrays.stream(lineAccesses).sum(); }
    }

    private WorkloadInspector() {}

    /** Base addresses for the allocations: from 4 GiB up, each 2 MiB-aligned with a 2 MiB guard gap. */
    public static long[] layout(List<AllocationSpec> allocs) {
        long[] base = new long[allocs.size()];
        long at = 1L << 32;
        for (int i = 0; i < base.length; i++) {
            base[i] = at;
            at = (at + allocs.get(i).bytes() + (2L << 20) - 1) / (2L << 20) * (2L << 20) + (2L << 20);
        }
        return base;
    }

    public static Summary inspect(Workload w, long maxInstructions) { return inspect(w, maxInstructions, null); }

    /**
     * Drains every warp program. Throws {@link IllegalStateException} if an active address is outside
     * every allocation, a memory instruction has no active lane, or more than {@code maxInstructions}
     * instructions are emitted (a stream that does not end).
     */
    public static Summary inspect(Workload w, long maxInstructions, Visitor visitor) {
        List<AllocationSpec> allocs = w.allocations();
        long[] base = layout(allocs);
        long[] end = new long[base.length];
        long footprint = 0;
        for (int i = 0; i < base.length; i++) {
            end[i] = base[i] + allocs.get(i).bytes();
            footprint += allocs.get(i).bytes();
        }
        List<Kernel> kernels = w.kernels(base);
        long[] threads = new long[base.length], lines = new long[base.length];
        long[] seen = new long[WarpInstruction.THREADS];
        int[] owner = new int[WarpInstruction.THREADS];
        WarpInstruction in = new WarpInstruction();
        long count = 0, memory = 0, warps = 0, sum = 0;
        for (int k = 0; k < kernels.size(); k++) {
            Kernel kernel = kernels.get(k);
            for (int cta = 0; cta < kernel.ctas(); cta++) {
                for (int warp = 0; warp < kernel.warpsPerCta(); warp++) {
                    warps++;
                    WarpProgram prog = kernel.program(cta, warp);
                    while (prog.next(in)) {
                        if (++count > maxInstructions)
                            throw new IllegalStateException(w.name() + ": more than " + maxInstructions + " instructions");
                        sum = Hash.of(sum, in.kind.ordinal(), in.cycles, in.waitsForLoads ? 1 : 0);
                        if (in.kind == WarpInstruction.Kind.COMPUTE || in.kind == WarpInstruction.Kind.BARRIER) {
                            if (visitor != null) visitor.instruction(k, cta, warp, in, owner);
                            continue;
                        }
                        memory++;
                        if (in.activeMask == 0)
                            throw new IllegalStateException(w.name() + ": kernel " + kernel.name() + " CTA " + cta + " warp " + warp + ": memory instruction with no active lane");
                        sum = Hash.of(sum, in.activeMask, in.bytesPerThread);
                        int distinct = 0;
                        for (int l = 0; l < WarpInstruction.THREADS; l++) {
                            if ((in.activeMask & (1 << l)) == 0) { owner[l] = -1; continue; }
                            long a = in.addresses[l];
                            int o = find(base, a);
                            if (o < 0 || a + in.bytesPerThread > end[o])
                                throw new IllegalStateException(String.format("%s: kernel %s CTA %d warp %d lane %d: %s address 0x%x (%d B) is outside every allocation",
                                        w.name(), kernel.name(), cta, warp, l, in.kind, a, in.bytesPerThread));
                            owner[l] = o;
                            threads[o]++;
                            sum = Hash.of(sum, a - base[o], o);
                            long line = a / LINE;
                            boolean dup = false;
                            for (int j = 0; j < distinct; j++) if (seen[j] == line) { dup = true; break; }
                            if (!dup) {
                                seen[distinct++] = line;
                                lines[o]++;
                            }
                        }
                        if (visitor != null) visitor.instruction(k, cta, warp, in, owner);
                    }
                }
            }
        }
        return new Summary(w.name(), footprint, kernels.size(), warps, count, memory,
                allocs.stream().map(AllocationSpec::name).toList(), threads, lines, sum);
    }

    private static int find(long[] base, long a) {
        int i = Arrays.binarySearch(base, a);
        return i >= 0 ? i : -i - 2;
    }
}
