package org.hmsim.platform.workloads.builtin.frc;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * AMD APP SDK Reduction, kernel {@code reduce} of Reduction_Kernels.cl (seed 003 §5: "latency halves with
 * 256 MSHRs, no time change; validation outlier"; Fig 5.5: MPKO drops with FRC, OPC flat). Work-item
 * {@code gid} loads {@code input[2·gid]} and {@code input[2·gid+1]} (uint4 each: lanes 32 B apart, the two
 * loads fill each other's half lines), adds them into the LDS, and the group reduces the LDS in
 * log2(threads) halving steps, a barrier each (step s: work-items {@code tid < s} add {@code sdata[tid+s]});
 * work-item 0 writes the group's uint4 to {@code output[groupId]}. The host adds the per-group sums.
 * So: one streaming unit-stride read of the whole input, a tiny write (16 B per 8·threads input words).
 * ALU counts are estimates (uint4 add = 4, LDS read/write ≈ 2 each). Sizes are ours.
 */
public final class SdkReductionWorkload extends BuiltinProvider {
    public SdkReductionWorkload() {
        super("sdk-reduction", "model of AMD APP SDK Reduction (reduce kernel; seed 003): each work-item loads two "
                        + "adjacent uint4 (a streaming unit-stride read of the input), LDS tree reduction with a barrier per halving "
                        + "step, one 16 B store per work-group. Footprint 4 B x elements (+ 16 B per group).",
                List.of(
                        ParamSpec.integer("elements", 1 << 20, 256, 1 << 28, "input uints (8 per work-item; rounded down to a multiple of 8 x threads)"),
                        ParamSpec.integer("threads", 256, 32, 1024, "work-items per work-group (a power of two)"),
                        ParamSpec.integer("add_alu", 6, 0, 10_000, "ALU instructions for the first add and LDS store (estimate)"),
                        ParamSpec.integer("step_alu", 8, 0, 10_000, "ALU instructions per active warp per LDS halving step (estimate)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int threads = p.getInt("threads"), addAlu = p.getInt("add_alu"), stepAlu = p.getInt("step_alu"), iterations = p.getInt("iterations");
        if (Integer.bitCount(threads) != 1) throw new IllegalArgumentException("sdk-reduction: threads must be a power of two, was " + threads);
        int ctas = Math.max(1, p.getInt("elements") / (8 * threads));
        long items = (long) ctas * threads;
        int steps = Integer.numberOfTrailingZeros(threads);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("input", 32L * items, AllocationHint.NONE, true),
                new AllocationSpec("output", 16L * ctas, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("reduce", ctas, threads, 16 * threads, (cta, warp) -> {
                    long first = (long) cta * threads + (long) warp * Lanes.W;
                    int mask = Lanes.existing(warp, threads);
                    return new ScriptedProgram() {
                        @Override
                        int step(int s, WarpInstruction o) {
                            switch (s) {
                                case 0 -> linear(o, Kind.LOAD, 16, mask, b[0], first, 32, 0);
                                case 1 -> linear(o, Kind.LOAD, 16, mask, b[0], first, 32, 16);
                                case 2 -> { return addAlu; }
                                case 3 -> o.barrier();
                                default -> {
                                    int k = s - 4, level = k / 2;
                                    if (level < steps) {
                                        if (k % 2 == 1) { o.barrier(); return EMITTED; }
                                        int active = threads >> (level + 1); // tid < active add sdata[tid + active]
                                        return warp * Lanes.W < active ? stepAlu : SKIP;
                                    }
                                    if (k == 2 * steps && warp == 0) {
                                        linear(o, Kind.STORE, 16, 1, b[1], cta, 16, 0);
                                        return EMITTED;
                                    }
                                    return END;
                                }
                            }
                            return EMITTED;
                        }
                    };
                }));
            return ks;
        });
    }
}
