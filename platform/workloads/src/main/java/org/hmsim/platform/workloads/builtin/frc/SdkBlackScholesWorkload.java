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
 * AMD APP SDK BlackScholes, kernel {@code blackScholes} of BlackScholes_Kernels.cl (seed 003 §5: "SI always
 * > NMOESI; MPKO < 1.5 yet FRC helps"). Work-item t prices four options at once: it loads one float4
 * {@code randArray[t]}, derives S, K, T, R and sigma from it, computes d1, d2 and four calls of the
 * cumulative-normal approximation {@code phi} (exp, log, sqrt, divisions on float4), and stores
 * {@code call[t]} after the first two {@code phi} calls and {@code put[t]} after the last two (float4 each).
 * So one unit-stride 16 B/lane read and two unit-stride 16 B/lane writes around ~450 ALU instructions.
 * (The seed's "5 arrays" is the CUDA SDK's version; the AMD kernel reads one array.)
 * <p>The SDK's 2-D NDRange ({@code yPos·width + xPos}) is linearised, work-groups of {@code threads}
 * consecutive work-items. ALU counts are estimates from the source (phi ≈ 20 instructions per component,
 * 4 components x 4 calls; setup, log/sqrt/exp ≈ 130), not measured. Sizes are ours.
 */
public final class SdkBlackScholesWorkload extends BuiltinProvider {
    public SdkBlackScholesWorkload() {
        super("sdk-black-scholes", "model of AMD APP SDK BlackScholes (blackScholes kernel; seed 003): per work-item one "
                        + "unit-stride float4 read of randArray, ~450 ALU instructions (4 options, phi x 4), unit-stride float4 "
                        + "writes of call and put: high ALU/memory ratio, low MPKO. Footprint 48 B x work_items.",
                List.of(
                        ParamSpec.integer("work_items", 32768, 32, 1 << 24, "work-items (the SDK's width x height; 4 options each)"),
                        ParamSpec.integer("threads", 256, 32, 1024, "work-items per work-group"),
                        ParamSpec.integer("call_alu", 290, 0, 100_000, "ALU instructions before the call store (estimate: setup, d1/d2, phi(d1), phi(d2))"),
                        ParamSpec.integer("put_alu", 160, 0, 100_000, "ALU instructions between the call and put stores (estimate: phi(-d1), phi(-d2))"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = p.getInt("work_items"), threads = p.getInt("threads"), callAlu = p.getInt("call_alu"), putAlu = p.getInt("put_alu");
        int iterations = p.getInt("iterations");
        int ctas = (n + threads - 1) / threads;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("randArray", 16L * n, AllocationHint.NONE, true),
                new AllocationSpec("call", 16L * n, AllocationHint.NONE, false),
                new AllocationSpec("put", 16L * n, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("blackScholes", ctas, threads, 0, (cta, warp) -> {
                    long first = (long) cta * threads + (long) warp * Lanes.W;
                    int mask = Lanes.existing(warp, threads) & Lanes.first(n - first);
                    return new ScriptedProgram() {
                        @Override
                        int step(int s, WarpInstruction o) {
                            if (mask == 0) return END;
                            switch (s) {
                                case 0 -> linear(o, Kind.LOAD, 16, mask, b[0], first, 16, 0);
                                case 1 -> { return callAlu; }
                                case 2 -> linear(o, Kind.STORE, 16, mask, b[1], first, 16, 0);
                                case 3 -> { return putAlu; }
                                case 4 -> linear(o, Kind.STORE, 16, mask, b[2], first, 16, 0);
                                default -> { return END; }
                            }
                            return EMITTED;
                        }
                    };
                }));
            return ks;
        });
    }
}
